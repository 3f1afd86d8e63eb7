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
  if (database.engine === 'postgres') {
    const result =
      await sql`INSERT INTO usage_ledger SELECT * FROM json_populate_recordset(NULL::usage_ledger, ${JSON.stringify(rows)}::json) ON CONFLICT (request_id, attempt) DO NOTHING`.execute(
        database.db,
      );
    return Number(result.numAffectedRows ?? 0n);
  }
  const result = await database.db
    .insertInto('usage_ledger')
    .values([...rows])
    .onConflict((conflict) => conflict.columns(['request_id', 'attempt']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}
