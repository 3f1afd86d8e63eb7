import type { Database } from '../../src/storage/open-database.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';

/** An Anthropic answer's ledger row that wrote 300 tokens to the prompt cache, 200 of them to the 1-hour cache. */
export const cacheWriteRow: UsageLedgerRow = {
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

/** The cache-write columns the ledger holds for that row. */
export const cacheWriteColumns = (database: Database) =>
  database.db
    .selectFrom('usage_ledger')
    .select(['cache_write_tokens', 'cache_write_1h_tokens'])
    .where('request_id', '=', cacheWriteRow.request_id)
    .executeTakeFirstOrThrow();
