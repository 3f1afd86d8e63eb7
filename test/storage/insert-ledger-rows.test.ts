import { afterEach, describe, expect, it } from 'vitest';
import { insertLedgerRows } from '../../src/storage/insert-ledger-rows.js';
import type { Database } from '../../src/storage/open-database.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { useScratch } from '../helpers/scratch.js';
import { openDatabase } from '../../src/storage/open-database.js';

const scratch = useScratch();
const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** An Anthropic answer that wrote 300 tokens to the prompt cache, 200 of them to the 1-hour cache. */
const row: UsageLedgerRow = {
  request_id: 'req_1',
  attempt: 1,
  at: 1_000,
  protocol: 'messages',
  model: 'claude',
  stream: 0,
  status: 200,
  billing: 'complete',
  input_tokens: 1_000,
  cached_input_tokens: 0,
  cache_write_tokens: 300,
  cache_write_1h_tokens: 200,
  output_tokens: 10,
};

async function open(engine: 'sqlite' | 'postgres'): Promise<Database> {
  const database = await openDatabase(scratch.database(engine));
  opened.push(database);
  return database;
}

const written = async (database: Database) =>
  database.db.selectFrom('usage_ledger').select(['cache_write_tokens', 'cache_write_1h_tokens']).where('request_id', '=', 'req_1').executeTakeFirstOrThrow();

describe.each(['sqlite', 'postgres'] as const)('insertLedgerRows on %s', (engine) => {
  it('should keep the 1-hour part of the cache writes in a column of its own', async () => {
    const database = await open(engine);
    expect(await insertLedgerRows(database, [row])).toBe(1);
    expect(await written(database)).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
  });
});
