import { afterEach, describe, expect, it } from 'vitest';
import { insertLedgerRows, insertLedgerRowsJson } from '../../src/storage/insert-ledger-rows.js';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { cacheWriteColumns, cacheWriteRow } from '../helpers/cache-write-row.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

describe.each(['sqlite', 'postgres'] as const)('insertLedgerRows on %s', (engine) => {
  it('should keep the 1-hour part of the cache writes in a column of its own', async () => {
    const database = await openDatabase(scratch.database(engine));
    opened.push(database);
    expect(await insertLedgerRows(database, [cacheWriteRow])).toBe(1);
    expect(await cacheWriteColumns(database)).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
  });

  it('should insert rows given as JSON text (as the outbox keeps them) like rows given as objects, each once', async () => {
    const database = await openDatabase(scratch.database(engine));
    opened.push(database);
    const second = { ...cacheWriteRow, request_id: 'req_2', model: 'claude "quoted" \\ model' };
    expect(await insertLedgerRowsJson(database, JSON.stringify([cacheWriteRow, second]))).toBe(2);
    // Sent again (a drain that could not remove them): left as they were.
    expect(await insertLedgerRowsJson(database, JSON.stringify([cacheWriteRow, second]))).toBe(0);
    expect(await cacheWriteColumns(database)).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
    const models = await database.db.selectFrom('usage_ledger').select(['request_id', 'model']).orderBy('request_id').execute();
    expect(models).toEqual([
      { request_id: 'req_1', model: 'claude' },
      { request_id: 'req_2', model: 'claude "quoted" \\ model' },
    ]);
  });
});
