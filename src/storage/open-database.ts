import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { configError } from '../canonical/index.js';
import { migrateToLatest } from './migrations.js';
import { registerReads } from './reads-of.js';
import { SqliteReadDialect } from './sqlite-read-dialect.js';
import type { StorageSchema } from './schema.js';

export type StorageEngine = 'sqlite' | 'postgres';

export interface OpenDatabaseOptions {
  /** `postgres://…` (or `postgresql://…`) for PostgreSQL; anything else is a SQLite file path (`:memory:` too). */
  url: string;
  /** PostgreSQL only: the schema to keep the tables in, created when missing (instances or tests sharing a database). */
  schema?: string;
  /** Bring the schema up to date on open. Default: true. */
  migrate?: boolean;
}

/** An open store: the one query builder over either engine. */
export interface Database {
  readonly db: Kysely<StorageSchema>;
  /**
   * For long reads (the status page, usage reports): a SQLite file's are read by a read-only
   * connection in a worker thread, so they never block the main thread; the same as `db` otherwise.
   */
  readonly reads: Kysely<StorageSchema>;
  readonly engine: StorageEngine;
  /** Where it is, for the operator: a file path, or the URL without its password. */
  readonly location: string;
  /** Migrations this open ran (empty when the schema was current). */
  readonly migrated: readonly string[];
  close(): Promise<void>;
}

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

/** better-sqlite3's in-memory and temporary databases: private to their connection. */
function isMemory(path: string): boolean {
  return path === '' || path === ':memory:' || path.startsWith('file::memory:');
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

function sqliteDialect(path: string): SqliteDialect {
  const file = new SQLite(path);
  // WAL: readers never block the one writer; a busy writer is waited for rather than failed.
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  return new SqliteDialect({ database: file });
}

function postgresDialect(url: string, schema: string | undefined): PostgresDialect {
  // Bounded waits: a database that vanishes without closing its connections fails a query instead
  // of hanging it. The fallback name labels the gateway's connections in pg_stat_activity, unless
  // the URL or PGAPPNAME names them.
  const pool = new pg.Pool({
    connectionString: url,
    fallback_application_name: 'switchyard',
    max: 10,
    connectionTimeoutMillis: 5_000,
    query_timeout: 30_000,
  });
  // An idle connection dropped by the server (a restart, a network cut) is removed by the pool; not a crash.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // A connection in use has no pool listener: without one, the server ending it between two
    // queries (pg_terminate_backend, a fast shutdown: 57P01) is an unhandled 'error' event that
    // ends the process. The query under way fails on its own; the pool drops the dead connection.
    client.on('error', () => undefined);
    // Every connection works in the schema; the schema is made before the first query needs it.
    if (schema !== undefined) void client.query(`SET search_path TO "${schema}"`).catch(() => undefined);
  });
  return new PostgresDialect({ pool });
}

/**
 * Opens the gateway's store — a SQLite file by default, PostgreSQL for several instances — and
 * brings its schema up to date. Throws `CONFIG_DATABASE_SCHEMA_INVALID` for a schema name that is
 * not a plain lower-case identifier.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const engine: StorageEngine = isPostgresUrl(options.url) ? 'postgres' : 'sqlite';
  const { schema } = options;
  if (schema !== undefined && !schemaName.test(schema)) {
    throw configError(
      'CONFIG_DATABASE_SCHEMA_INVALID',
      `The database schema '${schema}' must be a lower-case identifier (letters, digits, _).`,
    );
  }
  if (engine === 'postgres' && schema !== undefined) {
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const dialect = engine === 'postgres' ? postgresDialect(options.url, schema) : sqliteDialect(options.url);
  const db = new Kysely<StorageSchema>({ dialect });
  let migrated: string[] = [];
  try {
    if (options.migrate !== false)
      migrated = await migrateToLatest(db as unknown as Kysely<unknown>, engine === 'postgres' ? schema : undefined);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // A SQLite file (not an in-memory database, which another connection cannot see) is read off
  // the main thread, by a worker started now: before the first request, not in the middle of traffic.
  const readDialect = engine === 'sqlite' && !isMemory(options.url) ? new SqliteReadDialect(options.url) : undefined;
  const reads = readDialect === undefined ? db : new Kysely<StorageSchema>({ dialect: readDialect });
  readDialect?.start();
  registerReads(db, reads);
  return {
    db,
    reads,
    engine,
    location: engine === 'postgres' ? withoutPassword(options.url) : options.url,
    migrated,
    close: async () => {
      // Kysely closes a driver only if a query opened it: the reader started with the database is closed here too.
      if (reads !== db) await Promise.all([reads.destroy(), readDialect?.close()]);
      await db.destroy();
    },
  };
}
