import type { Worker } from 'node:worker_threads';
import { spawnSqliteThread, stopSqliteThread, type ThreadError, threadError } from './sqlite-thread.js';

/**
 * The thread's code (after sqlite-thread.ts's prelude): a read-only better-sqlite3 connection
 * answering one query per message. Prepared statements are kept, a bounded number of them.
 */
const WORKER_CODE = `
let db;
let openError;
try {
  db = new SQLite(workerData.path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
} catch (error) {
  openError = error;
}
const statements = new Map();
const bind = (value) => (ArrayBuffer.isView(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
parentPort.on('message', ({ id, sql, parameters, close }) => {
  if (close) {
    // Asked to stop while idle: the connection closes and the thread ends on its own.
    if (db !== undefined) db.close();
    parentPort.close();
    return;
  }
  try {
    if (openError !== undefined) throw openError;
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      if (statements.size >= 200) statements.clear();
      statements.set(sql, statement);
    }
    if (!statement.reader) throw new Error('This connection only reads: the statement would write.');
    parentPort.postMessage({ id, rows: statement.all(parameters.map(bind)) });
  } catch (error) {
    parentPort.postMessage({ id, error: describeError(error) });
  }
});
`;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

type Answer = { id: number; rows: unknown[]; error?: undefined } | { id: number; error: ThreadError };

/**
 * A read-only connection to a SQLite file in a worker thread: better-sqlite3 is synchronous, so a
 * long read (a page over a large ledger) run there leaves the main thread free for requests.
 * WAL lets it read beside the main thread's writer. The worker starts with `start()` (or the first
 * query) and is started anew if it dies; it keeps the process alive only while a query is under way.
 */
export class SqliteReadWorker {
  readonly #path: string;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #nextId = 0;
  #closed = false;

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * Starts the worker now rather than at the first query. Its start is a one-time cost on the main
   * thread too: Node loads its worker modules there, and doing so deoptimized the request path's
   * compiled code. Started with the database, that happens before the first request instead of at
   * the first read (a minute into serving, when the unusual-spend watch first looks).
   */
  start(): void {
    if (!this.#closed) this.#worker ??= this.#spawn();
  }

  /** Whether a worker thread is up (started and not closed or lost). */
  get started(): boolean {
    return this.#worker !== undefined;
  }

  /** The rows `sql` reads; rejects (a SQLite error's message and code) if it fails or would write. */
  query(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error('The database is closed.'));
    const worker = (this.#worker ??= this.#spawn());
    const id = (this.#nextId += 1);
    return new Promise<unknown[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ id, sql, parameters });
    });
  }

  /**
   * Stops the worker; queries under way are rejected at once. An idle worker is asked to stop and
   * waited for (`stopSqliteThread`): its message is read only once its start (opening the file) is
   * over, so it is never terminated in the middle of it. A worker inside a query is terminated
   * without waiting: it ends only when its statement returns, and closing never waits for a long read.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker === undefined) return;
    const busy = this.#pending.size > 0;
    this.#failAll(new Error('The database was closed during the query.'));
    if (busy) {
      worker.unref();
      void worker.terminate();
      return;
    }
    await stopSqliteThread(worker);
  }

  #spawn(): Worker {
    const worker = spawnSqliteThread(WORKER_CODE, { path: this.#path });
    worker.on('message', (answer: Answer) => {
      const pending = this.#pending.get(answer.id);
      if (pending === undefined) return;
      this.#pending.delete(answer.id);
      if (this.#pending.size === 0) worker.unref();
      if (answer.error === undefined) pending.resolve(answer.rows);
      else pending.reject(threadError(answer.error));
    });
    const lost = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      this.#failAll(error);
    };
    worker.on('error', (error) => lost(error));
    worker.on('exit', (code) => lost(new Error(`The database reader stopped (exit code ${code}).`)));
    // After the listeners: adding a 'message' listener refs the worker's port again, and an idle
    // reader must not keep the process alive.
    worker.unref();
    return worker;
  }

  #failAll(error: Error): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) reject(error);
  }
}
