import type { StorageDb } from '../storage/schema.js';
import { appendBalanceRows, type BalanceRow } from './balance-ledger.js';

type UsageRow = Omit<BalanceRow, 'id'>;

/** Rows kept at most while the database is away; beyond, the oldest are dropped (and counted). */
const MAX_WAITING = 100_000;

/**
 * Writes the balance ledger's usage rows a few at a time, off the request path: what a request
 * cost is already counted in the balance counters when it settles; its row follows within
 * `intervalMs`. Rows that fail to be written are kept and tried again.
 */
export class BalanceUsageWriter {
  readonly #db: () => Promise<StorageDb>;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  #waiting: UsageRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;
  dropped = 0;

  constructor(db: () => Promise<StorageDb>, intervalMs: number, onError: (error: unknown) => void) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#onError = onError;
  }

  add(row: UsageRow): void {
    this.#waiting.push(row);
    if (this.#waiting.length > MAX_WAITING) {
      this.#waiting.shift();
      this.dropped += 1;
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#intervalMs);
  }

  /** Writes what waits; resolves when written (or failed and kept for the next try). */
  async flush(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing;
    if (this.#waiting.length === 0) return;
    this.#flushing = (async () => {
      while (this.#waiting.length > 0) {
        const rows = this.#waiting.splice(0, 1_000);
        try {
          await appendBalanceRows(await this.#db(), rows);
        } catch (error) {
          this.#waiting.unshift(...rows);
          this.#onError(error);
          return;
        }
      }
    })();
    await this.#flushing;
    this.#flushing = undefined;
    if (this.#waiting.length > 0) {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        void this.flush();
      }, this.#intervalMs);
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
