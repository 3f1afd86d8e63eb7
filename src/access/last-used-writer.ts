import type { StorageDb } from '../storage/schema.js';

/**
 * Keeps each stored key's "last used" time without a write per request: the keys used are
 * collected and written in one statement per interval. A failed write is retried at the next one.
 */
export class LastUsedWriter {
  readonly #db: () => StorageDb | undefined;
  readonly #onError: (error: unknown) => void;
  #used = new Map<string, number>();
  #writing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(db: () => StorageDb | undefined, intervalMs: number, onError: (error: unknown) => void) {
    this.#db = db;
    this.#onError = onError;
    this.#timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  used(publicId: string, at = Date.now()): void {
    this.#used.set(publicId, at);
  }

  /** Writes what was collected; resolves when written (or the write failed and was kept for later). */
  flush(): Promise<void> {
    this.#writing = this.#writing.then(() => this.#write());
    return this.#writing;
  }

  async #write(): Promise<void> {
    const db = this.#db();
    if (this.#used.size === 0 || db === undefined) return;
    const batch = this.#used;
    this.#used = new Map();
    // One time for the batch: its latest, which is within one interval of every key's real last use.
    const at = Math.max(...batch.values());
    try {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('public_id', 'in', [...batch.keys()])
        .execute();
    } catch (error) {
      for (const [id, time] of batch) if (!this.#used.has(id)) this.#used.set(id, time);
      this.#onError(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }
}
