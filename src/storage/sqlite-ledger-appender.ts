import SQLite from 'better-sqlite3';
import type { UsageLedgerRow } from './schema.js';

/** The ledger's columns, in the order rows are written. */
const COLUMNS = [
  'request_id',
  'attempt',
  'at',
  'key_public_id',
  'user_agent',
  'protocol',
  'model',
  'provider',
  'upstream_model',
  'stream',
  'status',
  'error_code',
  'input_tokens',
  'cached_input_tokens',
  'cache_write_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cost_nano_usd',
  'price_version',
  'latency_ms',
  'first_token_ms',
  'billing',
  'usage_source',
  'token_id',
  'deployment',
  'cache_write_1h_tokens',
] as const;

/**
 * Appends ledger rows straight into a SQLite database file, one prepared statement in one
 * transaction per batch: when the database is a local file it is as durable as an outbox would
 * be, so rows skip the outbox and the second copy. A row already there (same request id and
 * attempt) is left as it was. Its own connection, so it never joins another connection's transaction.
 */
export class SqliteLedgerAppender {
  readonly #file: SQLite.Database;
  readonly #appendAll: (rows: readonly UsageLedgerRow[]) => number;

  constructor(path: string) {
    this.#file = new SQLite(path);
    this.#file.pragma('journal_mode = WAL');
    this.#file.pragma('synchronous = NORMAL');
    this.#file.pragma('busy_timeout = 5000');
    const insert = this.#file.prepare(
      `INSERT INTO usage_ledger (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (request_id, attempt) DO NOTHING`,
    );
    this.#appendAll = this.#file.transaction((rows: readonly UsageLedgerRow[]) => {
      let written = 0;
      for (const row of rows) written += insert.run(valuesOf(row)).changes;
      return written;
    });
  }

  /** Commits `rows`; returns how many were new. */
  append(rows: readonly UsageLedgerRow[]): number {
    return rows.length === 0 ? 0 : this.#appendAll(rows);
  }

  close(): void {
    this.#file.close();
  }
}

/** The row's values in column order (positional parameters bind faster than named ones); a column it leaves out is NULL. */
function valuesOf(row: UsageLedgerRow): unknown[] {
  const record = row as unknown as Record<string, unknown>;
  return COLUMNS.map((column) => record[column] ?? null);
}
