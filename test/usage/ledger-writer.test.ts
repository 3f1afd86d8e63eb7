import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/storage/open-database.js';
import { Outbox } from '../../src/storage/outbox.js';
import type { StorageDb, UsageLedgerRow } from '../../src/storage/schema.js';
import { LedgerWriter } from '../../src/usage/ledger-writer.js';
import { useScratch } from '../helpers/scratch.js';
import { testDatabase, type TestDatabase } from '../helpers/test-database.js';

const scratch = useScratch();
const outboxFile = () => scratch.file('ledger-outbox');

async function openTestDatabase(engine: 'sqlite' | 'postgres'): Promise<{ store: TestDatabase; database: Database }> {
  const store = testDatabase(engine);
  const database = await store.open();
  scratch.later(() => store.remove());
  scratch.later(() => database.close());
  return { store, database };
}

function row(requestId: string, attempt = 1): UsageLedgerRow {
  return {
    request_id: requestId,
    attempt,
    at: 1_790_000_000_000,
    key_public_id: 'pub',
    user_agent: null,
    protocol: 'chat',
    model: 'm',
    provider: 'p',
    upstream_model: 'u',
    stream: 0,
    status: 200,
    error_code: null,
    input_tokens: 10,
    cached_input_tokens: null,
    cache_write_tokens: null,
    output_tokens: 5,
    reasoning_tokens: null,
    cost_nano_usd: null,
    price_version: null,
    latency_ms: 3,
    first_token_ms: null,
    billing: 'complete',
    usage_source: 'reported',
  };
}

async function ledgerIds(db: StorageDb): Promise<string[]> {
  const rows = await db.selectFrom('usage_ledger').select(['request_id', 'attempt']).orderBy('request_id').orderBy('attempt').execute();
  return rows.map((entry) => `${entry.request_id}#${entry.attempt}`);
}

describe.each(['sqlite', 'postgres'] as const)('LedgerWriter on %s', (engine) => {
  it('should write enqueued rows in batches and leave the outbox empty', async () => {
    const { database } = await openTestDatabase(engine);
    const writer = new LedgerWriter({ db: () => database, outbox: new Outbox(outboxFile()), batchSize: 7, intervalMs: 5 });
    for (let i = 0; i < 30; i += 1) writer.enqueue(row(`req_${String(i).padStart(2, '0')}`));
    await writer.close();
    expect(await ledgerIds(database.db)).toHaveLength(30);
    expect(writer.counters).toEqual({ written: 30, waiting: 0, failedWrites: 0 });
  });

  it('should write a (request id, attempt) once, however often it is enqueued', async () => {
    const { database } = await openTestDatabase(engine);
    const writer = new LedgerWriter({ db: () => database, outbox: new Outbox(outboxFile()), intervalMs: 5 });
    writer.enqueue(row('req_a'));
    writer.enqueue(row('req_a'));
    writer.enqueue(row('req_a', 2));
    await writer.flush();
    writer.enqueue(row('req_a'));
    await writer.close();
    expect(await ledgerIds(database.db)).toEqual(['req_a#1', 'req_a#2']);
    expect(writer.counters.written).toBe(2);
  });

  it('should keep rows in the outbox while the database is away and write them all once it is back', async () => {
    const { database } = await openTestDatabase(engine);
    let available = false;
    const errors: string[] = [];
    const writer = new LedgerWriter({
      db: () => (available ? database : undefined),
      outbox: new Outbox(outboxFile()),
      intervalMs: 5,
      maxBackoffMs: 20,
      onError: (_error, where) => errors.push(where),
    });
    for (let i = 0; i < 10; i += 1) writer.enqueue(row(`req_${i}`));
    await writer.flush();
    expect(writer.counters).toMatchObject({ written: 0, waiting: 10 });
    expect(writer.counters.failedWrites).toBeGreaterThan(0);
    expect(errors).toContain('database');
    available = true;
    await writer.close();
    expect(await ledgerIds(database.db)).toHaveLength(10);
    expect(writer.counters.waiting).toBe(0);
  });

  it('should write what a stopped writer left in the outbox when the next one starts, without duplicates', async () => {
    const { database } = await openTestDatabase(engine);
    const file = outboxFile();
    const first = new LedgerWriter({ db: () => undefined, outbox: new Outbox(file), intervalMs: 5 });
    first.enqueue(row('req_1'));
    first.enqueue(row('req_2'));
    await first.close();
    // req_1 reached the database before the stop, but its outbox entry was not yet removed.
    await database.db.insertInto('usage_ledger').values(row('req_1')).execute();
    const second = new LedgerWriter({ db: () => database, outbox: new Outbox(file), intervalMs: 5 });
    expect(second.counters.waiting).toBe(2);
    await second.close();
    expect(await ledgerIds(database.db)).toEqual(['req_1#1', 'req_2#1']);
  });

  it('should write rows straight to a healthy database, never through the outbox', async () => {
    const { database } = await openTestDatabase(engine);
    const outbox = new Outbox(outboxFile());
    // The outbox is drained only once a minute here: rows that reach the database came directly.
    const writer = new LedgerWriter({ db: () => database, outbox, intervalMs: 60_000 });
    for (let i = 0; i < 25; i += 1) writer.enqueue(row(`req_${String(i).padStart(2, '0')}`));
    await expect.poll(() => ledgerIds(database.db), { timeout: 5_000 }).toHaveLength(25);
    expect(outbox.size).toBe(0);
    expect(writer.counters).toEqual({ written: 25, waiting: 0, failedWrites: 0 });
    await writer.close();
  });
});

describe('LedgerWriter commit window', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('should gather the rows of 50 ms by default into one commit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const commits: string[][] = [];
    const writer = new LedgerWriter({
      db: () => undefined,
      outbox: new Outbox(outboxFile()),
      direct: () => (rows) => commits.push(rows.map((entry) => entry.request_id)),
    });
    writer.enqueue(row('req_1'));
    vi.advanceTimersByTime(30);
    writer.enqueue(row('req_2'));
    vi.advanceTimersByTime(19);
    expect(commits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(commits).toEqual([['req_1', 'req_2']]);
    writer.enqueue(row('req_3'));
    vi.advanceTimersByTime(49);
    expect(commits).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(commits).toEqual([['req_1', 'req_2'], ['req_3']]);
    await writer.close();
  });

  it('should count the window from the answer of a row, and commit a row answered a window ago at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
    const commits: string[][] = [];
    const writer = new LedgerWriter({
      db: () => undefined,
      outbox: new Outbox(outboxFile()),
      direct: () => (rows) => commits.push(rows.map((entry) => entry.request_id)),
    });
    writer.enqueue(row('req_1'), Date.now() - 30);
    writer.enqueue(row('req_2'), Date.now());
    vi.advanceTimersByTime(19);
    expect(commits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(commits).toEqual([['req_1', 'req_2']]);
    writer.enqueue(row('req_3'), Date.now() - 50);
    expect(commits).toEqual([['req_1', 'req_2'], ['req_3']]);
    // An answer time ahead of the clock counts as now.
    writer.enqueue(row('req_4'), Date.now() + 1_000);
    vi.advanceTimersByTime(49);
    expect(commits).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(commits).toEqual([['req_1', 'req_2'], ['req_3'], ['req_4']]);
    await writer.close();
  });
});

describe('LedgerWriter with a slow PostgreSQL', () => {
  it('should put rows whose direct write is slow in the outbox, and write each once when the database answers', async () => {
    const { database } = await openTestDatabase('postgres');
    const outbox = new Outbox(outboxFile());
    const writer = new LedgerWriter({ db: () => database, outbox, intervalMs: 5, spillAfterMs: 30 });
    // Another connection holds a lock that makes every insert wait: the database is up but slow.
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.connection().execute(async (connection) => {
      await sql`BEGIN`.execute(connection);
      await sql`LOCK TABLE usage_ledger IN EXCLUSIVE MODE`.execute(connection);
      locked();
      await released;
      await sql`COMMIT`.execute(connection);
    });
    await isLocked;
    for (let i = 0; i < 10; i += 1) writer.enqueue(row(`req_${i}`));
    await expect.poll(() => outbox.size, { timeout: 5_000 }).toBe(10);
    expect(await ledgerIds(database.db)).toEqual([]);
    for (let i = 10; i < 15; i += 1) writer.enqueue(row(`req_${i}`));
    release();
    await holder;
    await writer.close();
    expect(await ledgerIds(database.db)).toHaveLength(15);
    expect(writer.counters).toMatchObject({ written: 15, waiting: 0 });
  });
});
