import type SQLite from 'better-sqlite3';
import type { WalCheckpointer } from './wal-checkpointer.js';
import { openWalWriter } from './wal-writer.js';

/** One entry waiting in the outbox: its place in the queue and what was put in, as the JSON text it is kept as. */
export interface OutboxEntry {
  seq: number;
  json: string;
}

/**
 * A durable local queue (a SQLite file in WAL mode) for rows that must reach the database even
 * while it is away. `append` returns once the row is committed to the file: a crashed process
 * loses nothing appended. Rows leave only through `remove`, after they were written elsewhere.
 * Synchronous on purpose: an append is one small local transaction (microseconds), cheaper than
 * any asynchronous hand-off.
 */
export class Outbox {
  readonly path: string;
  readonly #file: SQLite.Database;
  readonly #insert: SQLite.Statement<[string]>;
  readonly #insertMany: (values: readonly unknown[]) => void;
  readonly #select: SQLite.Statement<[number], OutboxEntry>;
  readonly #delete: SQLite.Statement<[number]>;
  readonly #count: SQLite.Statement<[], { n: number }>;
  readonly #beforeCommit: () => void;

  /** Given a `WalCheckpointer`, the file's WAL is checkpointed in that thread from the first append. */
  constructor(path: string, checkpoints?: WalCheckpointer) {
    this.path = path;
    const writer = openWalWriter(path, checkpoints);
    this.#file = writer.file;
    this.#beforeCommit = writer.beforeCommit;
    this.#file.exec('CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT NOT NULL)');
    this.#insert = this.#file.prepare('INSERT INTO outbox (value) VALUES (?)');
    this.#insertMany = this.#file.transaction((values: readonly unknown[]) => {
      for (const value of values) this.#insert.run(JSON.stringify(value));
    });
    this.#select = this.#file.prepare('SELECT seq, value AS json FROM outbox ORDER BY seq LIMIT ?');
    this.#delete = this.#file.prepare('DELETE FROM outbox WHERE seq <= ?');
    this.#count = this.#file.prepare('SELECT count(*) AS n FROM outbox');
  }

  /** Commits `values` to the file, in one transaction. */
  append(values: readonly unknown[]): void {
    if (values.length === 0) return;
    this.#beforeCommit();
    this.#insertMany(values);
  }

  /**
   * The oldest `limit` entries, oldest first, as the text they are kept as: a drain hands it on
   * without parsing it (PostgreSQL takes rows as JSON text), which halved what a batch of 500 rows
   * held the event loop for.
   */
  peek(limit: number): OutboxEntry[] {
    return this.#select.all(limit);
  }

  /** Removes every entry up to and including `seq` (entries are taken oldest first). */
  removeThrough(seq: number): void {
    this.#delete.run(seq);
  }

  get size(): number {
    return this.#count.get()?.n ?? 0;
  }

  close(): void {
    this.#file.close();
  }
}
