import { sql } from 'kysely';
import type { Database } from './open-database.js';
import type { UsageLedgerRow } from './schema.js';

/**
 * Inserts ledger rows in one statement; a row already there (same request id and attempt) is left
 * as it was. Returns how many were new. PostgreSQL gets the rows as one JSON parameter expanded by
 * `json_populate_recordset`: the same SQL text for any number of rows, instead of a statement with
 * 24 parameters per row that the query builder would compile and pg would serialize one by one.
 */
export async function insertLedgerRows(database: Database, rows: readonly UsageLedgerRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  if (database.engine === 'postgres') return insertIntoPostgres(database, JSON.stringify(rows));
  const result = await database.db
    .insertInto('usage_ledger')
    .values([...rows])
    .onConflict((conflict) => conflict.columns(['request_id', 'attempt']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/**
 * `insertLedgerRows` for rows given as the text of a JSON array (the outbox keeps rows as JSON):
 * PostgreSQL takes the text as it is, without the rows being parsed and serialised again.
 */
export async function insertLedgerRowsJson(database: Database, rowsJson: string): Promise<number> {
  if (database.engine === 'postgres') return insertIntoPostgres(database, rowsJson);
  return insertLedgerRows(database, JSON.parse(rowsJson) as UsageLedgerRow[]);
}

async function insertIntoPostgres(database: Database, rowsJson: string): Promise<number> {
  const result =
    await sql`INSERT INTO usage_ledger SELECT * FROM json_populate_recordset(NULL::usage_ledger, ${rowsJson}::json) ON CONFLICT (request_id, attempt) DO NOTHING`.execute(
      database.db,
    );
  return Number(result.numAffectedRows ?? 0n);
}
