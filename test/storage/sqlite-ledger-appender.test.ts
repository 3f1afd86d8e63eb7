import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { SqliteLedgerAppender } from '../../src/storage/sqlite-ledger-appender.js';
import { cacheWriteColumns, cacheWriteRow } from '../helpers/cache-write-row.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

describe('SqliteLedgerAppender', () => {
  it('should keep the 1-hour part of the cache writes in a column of its own', async () => {
    const file = scratch.file('appender');
    const database = await openDatabase({ url: file });
    opened.push(database);
    const appender = new SqliteLedgerAppender(file);
    scratch.later(() => appender.close());
    expect(appender.append([cacheWriteRow])).toBe(1);
    expect(await cacheWriteColumns(database)).toEqual({ cache_write_tokens: 300, cache_write_1h_tokens: 200 });
  });
});
