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

/** Rows per INSERT statement at most: a statement per batch size up to it is prepared once, when first needed. */
const ROWS_PER_STATEMENT = 32;

/**
 * Appends ledger rows straight into a SQLite database file, in one transaction per batch: when
 * the database is a local file it is as durable as an outbox would be, so rows skip the outbox and
 * the second copy. Rows go in multi-row INSERTs (up to ROWS_PER_STATEMENT each), which cost about a
 * quarter less per row than one statement per row (callgrind, 20,000 rows in batches of 10: 44k
 * against 58k instructions a row). A row already there (same request id and attempt) is left as it
 * was. Its own connection, so it never joins another connection's transaction.
 */
export class SqliteLedgerAppender {
  readonly #file: SQLite.Database;
  /** The INSERT for `n` rows at index `n`. */
  readonly #inserts: (SQLite.Statement | undefined)[] = [];
  readonly #appendAll: (rows: readonly UsageLedgerRow[]) => number;

  constructor(path: string) {
    this.#file = new SQLite(path);
    this.#file.pragma('journal_mode = WAL');
    this.#file.pragma('synchronous = NORMAL');
    this.#file.pragma('busy_timeout = 5000');
    this.#appendAll = this.#file.transaction((rows: readonly UsageLedgerRow[]) => {
      let written = 0;
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const end = Math.min(rows.length, start + ROWS_PER_STATEMENT);
        const values: unknown[] = [];
        for (let index = start; index < end; index++) pushValues(values, rows[index]!);
        written += this.#insertOf(end - start).run(values).changes;
      }
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

  #insertOf(count: number): SQLite.Statement {
    let insert = this.#inserts[count];
    if (insert === undefined) {
      const row = `(${COLUMNS.map(() => '?').join(', ')})`;
      insert = this.#file.prepare(
        `INSERT INTO usage_ledger (${COLUMNS.join(', ')}) VALUES ${Array(count).fill(row).join(', ')} ON CONFLICT (request_id, attempt) DO NOTHING`,
      );
      this.#inserts[count] = insert;
    }
    return insert;
  }
}

/** Adds the row's values to `values` in column order (positional parameters bind faster than named ones); a column it leaves out is NULL. */
function pushValues(values: unknown[], row: UsageLedgerRow): void {
  const record = row as unknown as Record<string, unknown>;
  for (const column of COLUMNS) values.push(record[column] ?? null);
}
