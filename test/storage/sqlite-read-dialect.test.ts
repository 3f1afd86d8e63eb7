import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { readsOf } from '../../src/storage/reads-of.js';
import { SqliteReadWorker } from '../../src/storage/sqlite-read-worker.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const opened: Database[] = [];

afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

async function open(url: string, schema?: string): Promise<Database> {
  const database = await openDatabase({ url, ...(schema === undefined ? {} : { schema }) });
  opened.push(database);
  return database;
}

const row = (id: string, at: number) => ({
  request_id: id,
  attempt: 0,
  at,
  key_public_id: 'key_1',
  user_agent: null,
  protocol: 'chat',
  model: 'm',
  provider: 'p',
  upstream_model: 'm',
  stream: 0,
  status: 200,
  error_code: null,
  input_tokens: 1,
  cached_input_tokens: null,
  cache_write_tokens: null,
  output_tokens: 2,
  reasoning_tokens: null,
  cost_nano_usd: 3,
  price_version: null,
  latency_ms: 10,
  first_token_ms: null,
  billing: 'complete',
});

describe('reads of a SQLite file in a worker thread', () => {
  it('should read what the main connection committed, in the same shapes', async () => {
    const database = await open(scratch.file('reads'));
    expect(database.reads).not.toBe(database.db);
    expect(readsOf(database.db)).toBe(database.reads);
    await database.db.insertInto('usage_ledger').values(row('req_1', 1_000)).execute();
    const read = await database.reads
      .selectFrom('usage_ledger')
      .select(['request_id', 'at', 'cost_nano_usd', 'cached_input_tokens'])
      .where('at', '>=', 500)
      .execute();
    expect(read).toEqual([{ request_id: 'req_1', at: 1_000, cost_nano_usd: 3, cached_input_tokens: null }]);
    // A row written after the reader began is seen by its next query.
    await database.db.insertInto('usage_ledger').values(row('req_2', 2_000)).execute();
    expect((await sql<{ n: number }>`select count(*) as n from usage_ledger`.execute(database.reads)).rows).toEqual([{ n: 2 }]);
  });

  it('should refuse a write and a transaction, and reject a bad query with its SQLite code', async () => {
    const database = await open(scratch.file('reads'));
    await expect(database.reads.deleteFrom('usage_ledger').execute()).rejects.toThrow('This connection only reads');
    await expect(database.reads.transaction().execute(async () => undefined)).rejects.toThrow('The read connection has no transactions.');
    await expect(sql`select nope from usage_ledger`.execute(database.reads)).rejects.toMatchObject({
      message: 'no such column: nope',
      code: 'SQLITE_ERROR',
    });
    // The reader still answers after each failure.
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.reads)).rows).toEqual([{ one: 1 }]);
  });

  it('should reject a query under way when closed, and every query after', async () => {
    const path = scratch.file('reads');
    await (await open(path)).close();
    opened.length = 0;
    const reader = new SqliteReadWorker(path);
    scratch.later(() => reader.close());
    expect(await reader.query('select 7 as seven', [])).toEqual([{ seven: 7 }]);
    // A long read (a second or so) under way: closing does not wait for it, and the query is rejected.
    const long = reader.query(
      'with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000000) select count(*) from n',
      [],
    );
    const outcome = long.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await reader.close();
    expect(await outcome).toBe('The database was closed during the query.');
    await expect(reader.query('select 1', [])).rejects.toThrow('The database is closed.');
  });

  it('should start the worker when the database opens, before the first read, and read on that one', async () => {
    const start = vi.spyOn(SqliteReadWorker.prototype, 'start');
    scratch.later(() => start.mockRestore());
    const database = await open(scratch.file('reads'));
    expect(start).toHaveBeenCalledTimes(1);
    const reader = start.mock.contexts[0] as SqliteReadWorker;
    expect(reader.started).toBe(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(database.reads)).rows).toEqual([{ one: 1 }]);
    expect(reader.started).toBe(true);
    await database.close();
    opened.length = 0;
    expect(reader.started).toBe(false);
    // Started after closing, it stays closed.
    reader.start();
    expect(reader.started).toBe(false);
  });

  it('should stop the worker started at open when the database closes without a read', async () => {
    const start = vi.spyOn(SqliteReadWorker.prototype, 'start');
    scratch.later(() => start.mockRestore());
    const database = await open(scratch.file('reads'));
    const reader = start.mock.contexts[0] as SqliteReadWorker;
    expect(reader.started).toBe(true);
    await database.close();
    opened.length = 0;
    expect(reader.started).toBe(false);
  });

  it('should stop an idle worker by asking it, never by terminating it, even one still opening a file that went away', async () => {
    // Terminating a thread while better-sqlite3 throws (here: the file is not there) aborted a whole test process on Node 24.
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    scratch.later(() => terminate.mockRestore());
    const starting = new SqliteReadWorker(`${scratch.file('gone')}-absent`);
    starting.start();
    await starting.close();
    const path = scratch.file('reads');
    await open(path);
    const idle = new SqliteReadWorker(path);
    expect(await idle.query('select 1 as one', [])).toEqual([{ one: 1 }]);
    await idle.close();
    expect(idle.started).toBe(false);
    await expect(idle.query('select 1', [])).rejects.toThrow('The database is closed.');
    expect(terminate).not.toHaveBeenCalled();
  });

  it('should let a process whose database was opened and never read or closed exit on its own', () => {
    // An idle reader must not hold the process: a CLI command opens the database, does its work and ends.
    const path = scratch.file('reads');
    // A script file: under `-e` the process ended even while the reader held it.
    const script = `${scratch.file('open-only')}.mts`;
    const source = new URL('../../src/storage/open-database.ts', import.meta.url).href;
    writeFileSync(
      script,
      `import { openDatabase } from '${source}';\nawait openDatabase({ url: process.env.DB });\nconsole.log('opened');\n`,
    );
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, DB: path },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(child.stderr).toBe('');
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('opened\n');
  });

  it('should fail a query with a clear error when the file is not there', async () => {
    const reader = new SqliteReadWorker(`${scratch.file('missing')}-absent`);
    scratch.later(() => reader.close());
    await expect(reader.query('select 1', [])).rejects.toMatchObject({ code: 'SQLITE_CANTOPEN' });
  });

  it('should read with the main connection where another connection cannot (an in-memory database) and on PostgreSQL', async () => {
    const memory = await open(':memory:');
    expect(memory.reads).toBe(memory.db);
    const { url, schema } = scratch.postgres();
    const postgres = await open(url, schema);
    expect(postgres.reads).toBe(postgres.db);
    expect(readsOf(postgres.db)).toBe(postgres.db);
  });
});
