import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { SqliteLedgerAppender } from '../../src/storage/sqlite-ledger-appender.js';
import { useScratch } from '../helpers/scratch.js';

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
  cache_write_tokens: 300,
  cache_write_1h_tokens: 200,
  output_tokens: 10,
};

describe('SqliteLedgerAppender', () => {
  it('should keep the 1-hour part of the cache writes in a column of its own', async () => {
    const file = scratch.file('appender');
    const database = await openDatabase({ url: file });
    opened.push(database);
    const appender = new SqliteLedgerAppender(file);
    scratch.later(() => appender.close());
    expect(appender.append([row])).toBe(1);
    const written = await database.db.selectFrom('usage_ledger').select(['cache_write_tokens', 'cache_write_1h_tokens']).where('request_id', '=', 'req_1').executeTakeFirstOrThrow();
    expect(written).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
  });
});
