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

/** When the sample rows were written: 10:00 UTC on 2026-11-26. */
export const sampleAt = Date.parse('2026-11-26T10:00:00Z');

/** An answered row of key `k1` on model `m` (10 tokens in, 2 out, 100 nano-USD), less its request id and attempt. */
export const answeredRow = {
  at: sampleAt,
  key_public_id: 'k1',
  protocol: 'chat',
  model: 'm',
  provider: 'p',
  stream: 0,
  status: 200,
  billing: 'complete',
  input_tokens: 10,
  output_tokens: 2,
  cost_nano_usd: 100,
} as const;

/** Spread over `answeredRow`: an attempt that failed with a 503, no usage and no cost. */
export const failedAttempt = {
  status: 503,
  error_code: 'UPSTREAM_UNAVAILABLE',
  billing: 'failed',
  input_tokens: null,
  output_tokens: null,
  cost_nano_usd: null,
} as const;
