import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { SqliteLedgerAppender } from '../../src/storage/sqlite-ledger-appender.js';
import { cacheWriteColumns, cacheWriteRow } from '../helpers/cache-write-row.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

/** A ledger database file with its schema, and an appender writing into it; both closed after the test. */
async function openAppender(name: string): Promise<{ database: Database; appender: SqliteLedgerAppender }> {
  const file = scratch.file(name);
  const database = await openDatabase({ url: file });
  opened.push(database);
  const appender = new SqliteLedgerAppender(file);
  scratch.later(() => appender.close());
  return { database, appender };
}

/** Every column a value no other column has: a value written to its neighbour's column shows. */
const everyColumn: Required<UsageLedgerRow> = {
  request_id: 'req_columns',
  attempt: 2,
  at: 1_700_000_000_003,
  key_public_id: 'key_public',
  user_agent: 'agent/1.0',
  protocol: 'responses',
  model: 'model-id',
  provider: 'provider-id',
  upstream_model: 'upstream-model',
  stream: 1,
  status: 502,
  error_code: 'UPSTREAM_ERROR',
  input_tokens: 11,
  cached_input_tokens: 12,
  cache_write_tokens: 13,
  cache_write_1h_tokens: 14,
  output_tokens: 15,
  reasoning_tokens: 16,
  cost_nano_usd: 17,
  price_version: 'price-v',
  latency_ms: 18,
  first_token_ms: 19,
  billing: 'partial',
  usage_source: 'estimated',
  token_id: 'token-id',
  deployment: 'provider-id/upstream-model',
};

describe('SqliteLedgerAppender', () => {
  it('should keep the 1-hour part of the cache writes in a column of its own', async () => {
    const { database, appender } = await openAppender('appender');
    expect(appender.append([cacheWriteRow])).toBe(1);
    expect(await cacheWriteColumns(database)).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
  });

  it('should write each column of a row to its own column', async () => {
    const { database, appender } = await openAppender('appender-columns');
    expect(appender.append([everyColumn])).toBe(1);
    expect(await database.db.selectFrom('usage_ledger').selectAll().executeTakeFirstOrThrow()).toEqual(everyColumn);
  });

  it('should give each row its own key, client, model and provider when runs of rows share them and others do not', async () => {
    const { database, appender } = await openAppender('appender-shared');
    // 50 rows: each shared column changes at its own pace, so runs of rows sharing all of them are
    // of many lengths (one row, several, a full statement); a row with no key and one without a
    // user agent among them, and equal user agents that are different strings.
    const rows: Required<UsageLedgerRow>[] = Array.from({ length: 50 }, (_, index) => ({
      ...everyColumn,
      request_id: `req_shared_${index}`,
      output_tokens: index,
      key_public_id: index === 7 ? null : `key_${Math.floor(index / 20)}`,
      user_agent: index === 8 ? null : ['agent/', String(Math.floor(index / 9))].join(''),
      model: `model-${Math.floor(index / 13)}`,
      provider: index % 17 === 0 ? 'other' : 'openai',
      upstream_model: index < 45 ? 'upstream' : 'upstream-2',
      price_version: index === 30 ? 'price-2' : 'price-1',
      billing: index % 11 === 10 ? 'failed' : 'complete',
      usage_source: index === 31 ? null : 'reported',
      deployment: index > 40 ? 'openai/second' : 'openai/first',
      protocol: index > 33 && index < 36 ? 'messages' : 'chat',
    }));
    expect(appender.append(rows)).toBe(50);
    const written = await database.db.selectFrom('usage_ledger').selectAll().orderBy('output_tokens').execute();
    expect(written).toEqual(rows);
  });

  it('should write every row of a batch larger than one statement, each with its own values, and count only new ones', async () => {
    const { database, appender } = await openAppender('appender-batch');
    // 70 rows: two statements of 32 and one of 6; the first three are written beforehand.
    const rows = Array.from({ length: 70 }, (_, index) => ({ ...cacheWriteRow, request_id: `req_${index}`, output_tokens: index }));
    expect(appender.append(rows.slice(0, 3))).toBe(3);
    // One row twice in the same batch, and three already there: neither is written again.
    expect(appender.append([...rows, rows[40]!])).toBe(67);
    const written = await database.db.selectFrom('usage_ledger').select(['request_id', 'output_tokens']).execute();
    expect(written).toHaveLength(70);
    for (const row of written) expect(row.request_id).toBe(`req_${row.output_tokens}`);
    // A batch of another size after: its statement is prepared then.
    expect(appender.append([{ ...cacheWriteRow, request_id: 'req_last', output_tokens: 7 }])).toBe(1);
  });

  it('should write none of a batch when one of its rows breaks a constraint, and write the next batch', async () => {
    const { database, appender } = await openAppender('appender-rollback');
    expect(appender.append([{ ...cacheWriteRow, request_id: 'req_before' }])).toBe(1);
    // 40 rows: the first 32 go in a statement of their own, then the 35th, in a later one, has no
    // protocol (NOT NULL).
    const rows = Array.from({ length: 40 }, (_, index) => ({ ...cacheWriteRow, request_id: `req_${index}` }));
    const broken = { ...rows[34]!, protocol: null } as unknown as UsageLedgerRow;
    expect(() => appender.append([...rows.slice(0, 34), broken, ...rows.slice(35)])).toThrow(/NOT NULL/);
    const kept = async () =>
      (await database.db.selectFrom('usage_ledger').select('request_id').orderBy('request_id').execute()).map((row) => row.request_id);
    expect(await kept()).toEqual(['req_before']);
    expect(appender.append(rows)).toBe(40);
    expect(await kept()).toHaveLength(41);
  });
});
