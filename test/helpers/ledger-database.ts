import { afterEach } from 'vitest';
import type { Database } from '../../src/storage/open-database.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { testDatabase } from './test-database.js';

/**
 * A function that opens a fresh database of the given engine holding `rows` in its usage ledger;
 * each one is closed and removed after its test.
 */
export function useLedgerDatabases(): (engine: 'sqlite' | 'postgres', rows: UsageLedgerRow[]) => Promise<Database> {
  const opened: Array<{ database: Database; remove(): Promise<void> }> = [];
  afterEach(async () => {
    for (const { database, remove } of opened.splice(0)) {
      await database.close();
      await remove();
    }
  });
  return async (engine, rows) => {
    const store = testDatabase(engine);
    const database = await store.open();
    opened.push({ database, remove: () => store.remove() });
    await database.db.insertInto('usage_ledger').values(rows).execute();
    return database;
  };
}
