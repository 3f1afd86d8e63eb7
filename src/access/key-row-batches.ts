import type { StorageDb } from '../storage/schema.js';
import type { KeyRowWithOwner } from './stored-keys.js';

/** Public ids per query at most; more wait for the next one. */
const MAX_BATCH = 500;

interface Waiting {
  publicId: string;
  resolve: (row: KeyRowWithOwner | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads stored keys by public id, many in one query: the ids asked for while a query is out go
 * together in the next, and one query at most is out at a time. Anyone can make keys of the right
 * shape with a valid checksum, and each new one must be looked up: a flood of them costs the
 * database one query per round trip, not one per key, and a real key among them waits one round
 * trip more at most.
 */
export class KeyRowBatches {
  readonly #db: () => StorageDb | undefined;
  #waiting: Waiting[] = [];
  #out = false;
  #scheduled = false;

  /** `db`: the key store; undefined while it is not open (the lookups fail). */
  constructor(db: () => StorageDb | undefined) {
    this.#db = db;
  }

  /** The row of the key `publicId`; undefined when there is none. */
  find(publicId: string): Promise<KeyRowWithOwner | undefined> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ publicId, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#out || this.#scheduled) return;
    this.#scheduled = true;
    // After this turn's I/O callbacks: the ids of every request that arrived in it go together.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#send();
    });
  }

  async #send(): Promise<void> {
    const batch = this.#waiting.splice(0, MAX_BATCH);
    if (batch.length === 0) return;
    this.#out = true;
    try {
      const store = this.#db();
      if (store === undefined) throw new Error('the key store is not open yet');
      const ids = [...new Set(batch.map((waiting) => waiting.publicId))];
      // With the owner (a console user) and whether they are disabled: a disabled user's keys are refused.
      const rows = await store
        .selectFrom('api_keys')
        .leftJoin('console_key_owners', 'console_key_owners.key_public_id', 'api_keys.public_id')
        .leftJoin('console_users', 'console_users.id', 'console_key_owners.user_id')
        .selectAll('api_keys')
        .select([
          'console_key_owners.user_id as owner_id',
          'console_users.email as owner_email',
          'console_users.is_admin as owner_is_admin',
          'console_users.disabled_at as owner_disabled_at',
        ])
        .where('api_keys.public_id', 'in', ids)
        .execute();
      const byId = new Map(rows.map((row) => [row.public_id, row]));
      for (const waiting of batch) waiting.resolve(byId.get(waiting.publicId));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.#out = false;
      if (this.#waiting.length > 0) this.#schedule();
    }
  }
}
