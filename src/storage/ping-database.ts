import { sql } from 'kysely';
import type { Database } from './open-database.js';

/** Resolves once the database answered a trivial query (`SELECT 1`): a readiness probe. */
export async function pingDatabase(database: Database): Promise<void> {
  await sql`select 1`.execute(database.db);
}
