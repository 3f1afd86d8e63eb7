import SQLite from 'better-sqlite3';
import type { UsageLedgerRow } from './schema.js';

/** The ledger's columns, in the order rows are written. */
const COLUMNS = [
  'request_id', 'attempt', 'at', 'key_public_id', 'user_agent', 'protocol', 'model', 'provider', 'upstream_model', 'stream', 'status',
  'error_code', 'input_tokens', 'cached_input_tokens', 'cache_write_tokens', 'output_tokens', 'reasoning_tokens', 'cost_nano_usd',
  'price_version', 'latency_ms', 'first_token_ms', 'billing', 'usage_source', 'token_id',
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
      `INSERT INTO usage_ledger (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((column) => `@${column}`).join(', ')}) ON CONFLICT (request_id, attempt) DO NOTHING`,
    );
    this.#appendAll = this.#file.transaction((rows: readonly UsageLedgerRow[]) => {
      let written = 0;
      for (const row of rows) written += insert.run(withEveryColumn(row)).changes;
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

/** Named parameters must all be present: a column the row leaves out is NULL. */
function withEveryColumn(row: UsageLedgerRow): Record<string, unknown> {
  if (row.usage_source !== undefined && row.token_id !== undefined) return row as Record<string, unknown>;
  return { ...row, usage_source: row.usage_source ?? null, token_id: row.token_id ?? null };
}
