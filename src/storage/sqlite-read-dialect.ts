import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { SqliteReadWorker } from './sqlite-read-worker.js';

/**
 * Kysely over a SQLite file read in a worker thread (`SqliteReadWorker`): for the pages' long
 * reads. No writes and no transactions; each query is answered whole, so every caller may share
 * the one connection.
 */
export class SqliteReadDialect implements Dialect {
  readonly #worker: SqliteReadWorker;

  constructor(path: string) {
    this.#worker = new SqliteReadWorker(path);
  }

  /** Starts the worker thread now, not at the first query (`SqliteReadWorker.start`). */
  start(): void {
    this.#worker.start();
  }

  /** Stops the worker thread (as the driver's `destroy` does, which Kysely calls only once a query ran). */
  close(): Promise<void> {
    return this.#worker.close();
  }

  createDriver(): Driver {
    return new SqliteReadDriver(this.#worker);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's Dialect interface takes Kysely<any>.
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

class SqliteReadDriver implements Driver {
  readonly #worker: SqliteReadWorker;
  readonly #connection: DatabaseConnection;

  constructor(worker: SqliteReadWorker) {
    this.#worker = worker;
    this.#connection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        return { rows: (await worker.query(query.sql, query.parameters)) as R[] };
      },
      async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
        yield { rows: (await worker.query(query.sql, query.parameters)) as R[] };
      },
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('The read connection has no transactions.');
  }

  async commitTransaction(): Promise<void> {
    throw new Error('The read connection has no transactions.');
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error('The read connection has no transactions.');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#worker.close();
  }
}
