import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { SQLITE_THREAD_NICE } from '../../src/storage/sqlite-thread.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();

/** The ledger rows in the database file alone (a copy without its WAL): what checkpoints copied there. */
function ledgerRowsInFileAlone(path: string): string[] {
  const copy = scratch.file('copy');
  copyFileSync(path, copy);
  const file = new SQLite(copy);
  try {
    // The migrations that made the table may be in the WAL still.
    if (file.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'usage_ledger'").get() === undefined) return [];
    return (file.prepare('SELECT request_id FROM usage_ledger').all() as Array<{ request_id: string }>).map((row) => row.request_id);
  } finally {
    file.close();
  }
}

/** This process's threads at the SQLite threads' nice value: the database's reader, and the checkpointer once started. */
function sqliteThreads(): number {
  let count = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      // The nice value is the 19th field, the 17th after the thread name's ')'.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === SQLITE_THREAD_NICE) count += 1;
    } catch {
      // A thread that ended while the folder was read.
    }
  }
  return count;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

/** A gateway on a new SQLite file, with a stored key; returns the file and the request ids of three answers. */
async function threeRequests(ledger: GatewayOptions['ledger']): Promise<{ path: string; ids: string[] }> {
  const path = scratch.file('ledger');
  const running = await startGateway({
    database: path,
    adminKey: 'admin-checkpoints-0123456789',
    ...(ledger === undefined ? {} : { ledger }),
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  const { key } = await running.gateway.keys!.create({ name: 'checkpoints' });
  const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
  const ids: string[] = [];
  for (let request = 0; request < 3; request += 1) {
    const answer = await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    ids.push(answer._request_id ?? '');
  }
  return { path, ids };
}

describe('the SQLite ledger, checkpointed off the event loop', () => {
  it("should copy the rows of a few requests into the database file within seconds, which SQLite's own checkpoint would leave in the WAL", async () => {
    const { path, ids } = await threeRequests(undefined);
    // Three rows are a few pages, far below the 1000 at which SQLite checkpoints on a commit.
    const deadline = Date.now() + 10_000;
    while (ledgerRowsInFileAlone(path).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ledgerRowsInFileAlone(path).sort()).toEqual([...ids].sort());
  });

  it('should checkpoint as often as `ledger.checkpointEveryMs` says', async () => {
    const { path, ids } = await threeRequests({ checkpointEveryMs: 3_600_000 });
    const database = await openDatabase({ url: path, migrate: false });
    scratch.later(() => database.close());
    const committed = async () =>
      (await database.db.selectFrom('usage_ledger').select('request_id').execute()).map((row) => row.request_id);
    const deadline = Date.now() + 10_000;
    while ((await committed()).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await committed()).sort()).toEqual([...ids].sort());
    // Past the default's second and then some: committed, and still only in the WAL.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(ledgerRowsInFileAlone(path)).toEqual([]);
  });

  it("should leave the store's own connection's checkpoints to the thread as well, once the ledger writes", async () => {
    const path = scratch.file('shared');
    const database = await openDatabase({ url: path });
    scratch.later(() => database.close());
    const autocheckpoint = async () =>
      (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(database.db)).rows[0]?.wal_autocheckpoint;
    // SQLite's default: a commit that leaves 1000 pages in the WAL checkpoints, on the event loop.
    expect(await autocheckpoint()).toBe(1000);
    const running = await startGateway({ database, adminKey: 'admin-checkpoints-0123456789' });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const { key } = await running.gateway.keys!.create({ name: 'shared' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    const deadline = Date.now() + 10_000;
    while ((await autocheckpoint()) === 1000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await autocheckpoint()).toBe(10_000);
  });

  it("should leave the store's connection as it was without a ledger", async () => {
    const path = scratch.file('no-ledger');
    const database = await openDatabase({ url: path });
    scratch.later(() => database.close());
    const running = await startGateway({ database, adminKey: 'admin-checkpoints-0123456789', ledger: false });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const { key } = await running.gateway.keys!.create({ name: 'no-ledger' });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [row] = (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(database.db)).rows;
    expect(row?.wal_autocheckpoint).toBe(1000);
  });

  it('should start the checkpointer thread with the first row, and none without a ledger', async () => {
    const before = sqliteThreads();
    const start = async (ledger: GatewayOptions['ledger'], name: string) => {
      const running = await startGateway({
        database: scratch.file(name),
        adminKey: 'admin-checkpoints-0123456789',
        ...(ledger === undefined ? {} : { ledger }),
      });
      scratch.later(() => running.close());
      await running.gateway.ready();
      const { key } = await running.gateway.keys!.create({ name });
      const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
      return { running, ask: () => openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] }) };
    };

    const unused = await start(undefined, 'unused');
    // The database's reader only: no row, no checkpointer.
    expect(await until(() => sqliteThreads() === before + 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sqliteThreads()).toBe(before + 1);
    await unused.ask();
    expect(await until(() => sqliteThreads() === before + 2)).toBe(true);
    await unused.running.gateway.close();
    expect(await until(() => sqliteThreads() === before)).toBe(true);

    const withoutLedger = await start(false, 'without-ledger');
    for (let request = 0; request < 3; request += 1) await withoutLedger.ask();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sqliteThreads()).toBe(before + 1);
    await withoutLedger.running.gateway.close();
  });

  it('should refuse a `checkpointEveryMs` that is not a positive whole number of ms', () => {
    for (const checkpointEveryMs of [0, -5, 1.5]) {
      expect(() =>
        gateway({ apiKeys: ['sk-test-checkpoints-0123456789'], logger: silentLogger, database: ':memory:', ledger: { checkpointEveryMs } }),
      ).toThrow(/ledger/);
    }
  });
});
