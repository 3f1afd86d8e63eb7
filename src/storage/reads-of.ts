import type { StorageDb } from './schema.js';

const readers = new WeakMap<StorageDb, StorageDb>();

/** Called by `openDatabase`: `reads` is where `db`'s long reads go. */
export function registerReads(db: StorageDb, reads: StorageDb): void {
  readers.set(db, reads);
}

/**
 * The query builder for long reads (pages, reports) over the same store as `db`: a read-only
 * connection in a worker thread for a SQLite file, so a page never blocks requests; `db` itself
 * otherwise (PostgreSQL is already asynchronous).
 */
export function readsOf(db: StorageDb): StorageDb {
  return readers.get(db) ?? db;
}
