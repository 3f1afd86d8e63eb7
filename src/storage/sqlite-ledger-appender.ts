import type SQLite from 'better-sqlite3';
import type { UsageLedgerRow } from './schema.js';
import type { WalCheckpointer } from './wal-checkpointer.js';
import { openWalWriter } from './wal-writer.js';

/** The ledger's columns, in the table's order (an INSERT listing them otherwise costs SQLite more a row). */
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
 * Columns whose values repeat from row to row under load (one key, one client, one model on one
 * provider): bound once for a run of rows that share them, as named parameters all the run's rows
 * name. Binding a string converts it to UTF-8 and copies it twice, about 800 instructions
 * (callgrind): these ten were a fifth of what a row cost.
 */
const SHARED_COLUMN_NAMES = [
  'key_public_id',
  'user_agent',
  'protocol',
  'model',
  'provider',
  'upstream_model',
  'price_version',
  'billing',
  'usage_source',
  'deployment',
] as const;
const SHARED_COLUMNS: ReadonlySet<string> = new Set(SHARED_COLUMN_NAMES);

/** The named parameters of a run of rows: its shared columns, NULL where a row leaves one out. */
type SharedValues = { [Column in (typeof SHARED_COLUMN_NAMES)[number]]-?: Exclude<UsageLedgerRow[Column], undefined> };

/** Rows per INSERT statement at most: a statement per batch size up to it is prepared once, when first needed. */
const ROWS_PER_STATEMENT = 32;

/**
 * A run of rows with the same SHARED_COLUMNS this long or longer goes in a statement of its own,
 * those columns bound once; the rows of shorter runs go together in statements of whole rows (a
 * statement for every run of one would cost more than the binds it saves).
 */
const SHARED_RUN = 4;

/**
 * Appends ledger rows straight into a SQLite database file, in one transaction per batch: when
 * the database is a local file it is as durable as an outbox would be, so rows skip the outbox and
 * the second copy. Rows go in multi-row INSERTs (up to ROWS_PER_STATEMENT each), which cost about a
 * quarter less per row than one statement per row (callgrind, 20,000 rows in batches of 10: 44k
 * against 58k instructions a row; with the values spread and read by name, 40k against 54k in
 * batches of 35). Rows in a run that shares SHARED_COLUMNS bind them once: 10,000 rows of one key
 * and model in commits of 200, into a ledger of 40,000, cost 30.2k–32.1k instructions a row against
 * 38.7k–39.9k bound whole; rows alternating between two models (runs of one) 46.6k–47.0k against
 * 46.0k–46.6k. A row already there (same request id and attempt) is left as it was. Its own
 * connection, so it never joins another connection's transaction. Given a `WalCheckpointer`, the
 * file's WAL is checkpointed in that thread from the first append, not by this connection's commits.
 */
export class SqliteLedgerAppender {
  readonly #file: SQLite.Database;
  readonly #beforeCommit: () => void;
  /** The INSERT for a run of `n` rows sharing SHARED_COLUMNS, at index `n`. */
  readonly #runInserts: (SQLite.Statement | undefined)[] = [];
  /** The INSERT for `n` whole rows, at index `n`. */
  readonly #rowInserts: (SQLite.Statement | undefined)[] = [];
  readonly #appendAll: (rows: readonly UsageLedgerRow[]) => number;

  constructor(path: string, checkpoints?: WalCheckpointer) {
    const writer = openWalWriter(path, checkpoints);
    this.#file = writer.file;
    this.#beforeCommit = writer.beforeCommit;
    this.#appendAll = this.#file.transaction((rows: readonly UsageLedgerRow[]) => this.#insertAll(rows));
  }

  /** Commits `rows`; returns how many were new. */
  append(rows: readonly UsageLedgerRow[]): number {
    if (rows.length === 0) return 0;
    this.#beforeCommit();
    return this.#appendAll(rows);
  }

  close(): void {
    this.#file.close();
  }

  #insertAll(rows: readonly UsageLedgerRow[]): number {
    let written = 0;
    // Whole rows of short runs, waiting for a statement of their own.
    let loose: unknown[] = [];
    let looseRows = 0;
    for (let start = 0; start < rows.length; ) {
      const first = rows[start]!;
      let end = start + 1;
      while (end < rows.length && end - start < ROWS_PER_STATEMENT && sharesColumns(rows[end]!, first)) end++;
      if (end - start >= SHARED_RUN) {
        const values: unknown[] = [];
        for (let index = start; index < end; index++) pushOwnValues(values, rows[index]!);
        // Spread, not the array: better-sqlite3 binds arguments directly, but reads an array's elements
        // one by one through V8's API (about 8k instructions a row more).
        written += this.#runInsert(end - start).run(...values, sharedValues(first)).changes;
      } else {
        for (let index = start; index < end; index++) {
          pushValues(loose, rows[index]!);
          if (++looseRows === ROWS_PER_STATEMENT) {
            written += this.#rowInsert(looseRows).run(...loose).changes;
            loose = [];
            looseRows = 0;
          }
        }
      }
      start = end;
    }
    if (looseRows > 0) written += this.#rowInsert(looseRows).run(...loose).changes;
    return written;
  }

  #runInsert(count: number): SQLite.Statement {
    return (this.#runInserts[count] ??= this.#prepare(
      count,
      COLUMNS.map((column) => (SHARED_COLUMNS.has(column) ? `@${column}` : '?')),
    ));
  }

  #rowInsert(count: number): SQLite.Statement {
    return (this.#rowInserts[count] ??= this.#prepare(
      count,
      COLUMNS.map(() => '?'),
    ));
  }

  /**
   * An INSERT of `count` rows, each row's values written as `row` (a parameter per column, in
   * COLUMNS' order). `OR ROLLBACK`: a row that breaks a constraint rolls back the whole batch, as the
   * transaction's failure did anyway; with the default (abort the statement alone) SQLite copied
   * every page a statement touched into a statement journal first, to undo that statement by itself
   * (callgrind, 10,000 rows in commits of 200: 25.8k instructions and 286 first-level data misses a
   * row against 24.0k and 183).
   */
  #prepare(count: number, row: readonly string[]): SQLite.Statement {
    return this.#file.prepare(
      `INSERT OR ROLLBACK INTO usage_ledger (${COLUMNS.join(', ')}) VALUES ${Array(count)
        .fill(`(${row.join(', ')})`)
        .join(', ')} ON CONFLICT (request_id, attempt) DO NOTHING`,
    );
  }
}

/**
 * Whether `row` has `first`'s SHARED_COLUMNS. Each field read by name, not `row[column]` in a
 * loop: a keyed read with many different keys goes megamorphic (callgrind: about 5k instructions a
 * row). Strings compare by content, so two requests' equal user agents match.
 */
function sharesColumns(row: UsageLedgerRow, first: UsageLedgerRow): boolean {
  return (
    (row.key_public_id ?? null) === (first.key_public_id ?? null) &&
    (row.user_agent ?? null) === (first.user_agent ?? null) &&
    row.protocol === first.protocol &&
    (row.model ?? null) === (first.model ?? null) &&
    (row.provider ?? null) === (first.provider ?? null) &&
    (row.upstream_model ?? null) === (first.upstream_model ?? null) &&
    (row.price_version ?? null) === (first.price_version ?? null) &&
    row.billing === first.billing &&
    (row.usage_source ?? null) === (first.usage_source ?? null) &&
    (row.deployment ?? null) === (first.deployment ?? null)
  );
}

/** The named parameters of a run of rows: its SHARED_COLUMNS, a column it leaves out as NULL. */
function sharedValues(row: UsageLedgerRow): SharedValues {
  return {
    key_public_id: row.key_public_id ?? null,
    user_agent: row.user_agent ?? null,
    protocol: row.protocol,
    model: row.model ?? null,
    provider: row.provider ?? null,
    upstream_model: row.upstream_model ?? null,
    price_version: row.price_version ?? null,
    billing: row.billing,
    usage_source: row.usage_source ?? null,
    deployment: row.deployment ?? null,
  };
}

/**
 * Adds the row's values to `values` in COLUMNS' order, a column it leaves out as NULL. Each field
 * read by name, not `row[column]` in a loop: a keyed read with 26 different keys goes megamorphic
 * (callgrind: about 5k instructions a row).
 */
function pushValues(values: unknown[], row: UsageLedgerRow): void {
  values.push(
    row.request_id,
    row.attempt,
    row.at,
    row.key_public_id ?? null,
    row.user_agent ?? null,
    row.protocol,
    row.model ?? null,
    row.provider ?? null,
    row.upstream_model ?? null,
    row.stream,
    row.status,
    row.error_code ?? null,
    row.input_tokens ?? null,
    row.cached_input_tokens ?? null,
    row.cache_write_tokens ?? null,
    row.output_tokens ?? null,
    row.reasoning_tokens ?? null,
    row.cost_nano_usd ?? null,
    row.price_version ?? null,
    row.latency_ms,
    row.first_token_ms ?? null,
    row.billing,
    row.usage_source ?? null,
    row.token_id ?? null,
    row.deployment ?? null,
    row.cache_write_1h_tokens ?? null,
  );
}

/**
 * Adds the values of the row's columns other than SHARED_COLUMNS to `values`, in COLUMNS' order:
 * `pushValues` less those ten, written out again rather than built from a list of names (a keyed
 * read per column goes megamorphic, as above), and in the table's order (SQLite spends about 800
 * instructions a row more on an INSERT whose columns come in another order).
 */
function pushOwnValues(values: unknown[], row: UsageLedgerRow): void {
  values.push(
    row.request_id,
    row.attempt,
    row.at,
    row.stream,
    row.status,
    row.error_code ?? null,
    row.input_tokens ?? null,
    row.cached_input_tokens ?? null,
    row.cache_write_tokens ?? null,
    row.output_tokens ?? null,
    row.reasoning_tokens ?? null,
    row.cost_nano_usd ?? null,
    row.latency_ms,
    row.first_token_ms ?? null,
    row.token_id ?? null,
    row.cache_write_1h_tokens ?? null,
  );
}
