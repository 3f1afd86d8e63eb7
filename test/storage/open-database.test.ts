import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, type Kysely } from 'kysely';
import { migrations } from '../../src/storage/migrations.js';
import { openDatabase, type Database } from '../../src/storage/open-database.js';
import { DATABASE_URL, testDatabase, type TestDatabase } from '../helpers/test-database.js';

const row = (requestId: string, attempt = 0) => ({
  request_id: requestId,
  attempt,
  at: 1_764_000_000_000,
  key_public_id: 'sk_pub_1',
  user_agent: null,
  protocol: 'messages',
  model: 'claude',
  provider: 'anthropic',
  upstream_model: 'claude-x',
  stream: 1,
  status: 200,
  error_code: null,
  input_tokens: 1200,
  cached_input_tokens: null,
  cache_write_tokens: null,
  cache_write_1h_tokens: null,
  output_tokens: 35,
  reasoning_tokens: null,
  // Above 2^32: a 64-bit column on both engines.
  cost_nano_usd: 9_000_000_123,
  price_version: null,
  latency_ms: 812,
  first_token_ms: 240,
  billing: 'complete',
  usage_source: 'reported',
  token_id: null,
  deployment: 'openai-east/gpt-4.1',
});

describe.each(['sqlite', 'postgres'] as const)('openDatabase on %s', (engine) => {
  let store: TestDatabase;
  const opened: Database[] = [];
  const open = async () => {
    const database = await store.open();
    opened.push(database);
    return database;
  };
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
    await store.remove();
  });

  it('should create the schema on first open and find nothing to run on the next', async () => {
    store = testDatabase(engine);
    const first = await open();
    expect(first.engine).toBe(engine);
    expect(first.migrated).toEqual([
      '0001_keys_and_ledger',
      '0002_usage_source_and_tokens',
      '0003_key_limits',
      '0004_gateway_leases',
      '0005_console',
      '0006_ledger_deployment',
      '0007_ledger_read_indexes',
      '0008_ledger_cache_write_1h',
      '0009_console_user_management',
      '0010_account_balances',
      '0011_redemption_codes',
      '0012_account_credit_limits',
      '0013_key_pauses',
    ]);
    await first.close();
    opened.length = 0;
    expect((await open()).migrated).toEqual([]);
  });

  it('should keep rows written before an upgrade, with the new columns unknown', async () => {
    store = testDatabase(engine);
    const early = await store.open({ migrate: false });
    opened.push(early);
    const schema =
      engine === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(early.db)).rows[0]?.schema
        : undefined;
    const { '0001_keys_and_ledger': first } = migrations();
    // The database as the first release left it: only its migration ran.
    const firstRelease = new Migrator({
      db: early.db as unknown as Kysely<unknown>,
      provider: { getMigrations: async () => ({ '0001_keys_and_ledger': first! }) },
      ...(schema === undefined ? {} : { migrationTableSchema: schema }),
    });
    expect((await firstRelease.migrateToLatest()).error).toBeUndefined();
    const {
      usage_source: _source,
      token_id: _token,
      deployment: _deployment,
      cache_write_1h_tokens: _writtenFor1h,
      ...firstReleaseRow
    } = row('req_old');
    await (early.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .insertInto('usage_ledger')
      .values(firstReleaseRow)
      .execute();
    const firstReleaseKey = {
      public_id: 'pub_old',
      name: 'old',
      secret_hash: 'h',
      created_at: 1,
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      models: null,
      budget_nano_usd: null,
      budget_period: null,
    };
    await (early.db as unknown as Kysely<Record<string, Record<string, unknown>>>).insertInto('api_keys').values(firstReleaseKey).execute();

    const upgraded = await open();
    expect(upgraded.migrated).toEqual([
      '0002_usage_source_and_tokens',
      '0003_key_limits',
      '0004_gateway_leases',
      '0005_console',
      '0006_ledger_deployment',
      '0007_ledger_read_indexes',
      '0008_ledger_cache_write_1h',
      '0009_console_user_management',
      '0010_account_balances',
      '0011_redemption_codes',
      '0012_account_credit_limits',
      '0013_key_pauses',
    ]);
    const key = await upgraded.db.selectFrom('api_keys').selectAll().where('public_id', '=', 'pub_old').executeTakeFirstOrThrow();
    expect({ ...key, created_at: Number(key.created_at) }).toEqual({
      ...firstReleaseKey,
      limits: null,
      unusual_spend_at: null,
      paused_at: null,
      pause_reason: null,
    });
    const read = await upgraded.db.selectFrom('usage_ledger').selectAll().where('request_id', '=', 'req_old').executeTakeFirstOrThrow();
    expect({ ...read, at: Number(read.at), cost_nano_usd: Number(read.cost_nano_usd) }).toEqual({
      ...row('req_old'),
      usage_source: null,
      deployment: null,
    });
  });

  it('should keep a ledger row as written: unknown counts stay NULL, a 64-bit cost stays exact', async () => {
    store = testDatabase(engine);
    const { db } = await open();
    await db.insertInto('usage_ledger').values(row('req_1')).execute();
    const read = await db.selectFrom('usage_ledger').selectAll().where('request_id', '=', 'req_1').executeTakeFirstOrThrow();
    expect({ ...read, at: Number(read.at), cost_nano_usd: Number(read.cost_nano_usd) }).toEqual(row('req_1'));
    expect(read.cached_input_tokens).toBeNull();
  });

  it('should hold one row per (request id, attempt): a repeated write is a no-op when asked, an error otherwise', async () => {
    store = testDatabase(engine);
    const { db } = await open();
    const write = (attempt: number) =>
      db
        .insertInto('usage_ledger')
        .values(row('req_2', attempt))
        .onConflict((conflict) => conflict.columns(['request_id', 'attempt']).doNothing())
        .execute();
    await write(0);
    await write(0);
    await write(1);
    const count = await db
      .selectFrom('usage_ledger')
      .select(sql<number>`count(*)`.as('n'))
      .where('request_id', '=', 'req_2')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
    await expect(db.insertInto('usage_ledger').values(row('req_2', 0)).execute()).rejects.toThrow();
  });

  it('should refuse two keys with one secret hash', async () => {
    store = testDatabase(engine);
    const { db } = await open();
    const key = (publicId: string) => ({
      public_id: publicId,
      name: publicId,
      secret_hash: 'same-hash',
      created_at: 1,
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      models: null,
      budget_nano_usd: null,
      budget_period: null,
    });
    await db.insertInto('api_keys').values(key('a')).execute();
    await expect(db.insertInto('api_keys').values(key('b')).execute()).rejects.toThrow();
  });
});

describe('openDatabase', () => {
  it('should run SQLite in WAL mode', async () => {
    const store = testDatabase('sqlite');
    const database = await store.open();
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    } finally {
      await database.close();
      await store.remove();
    }
  });

  it('should keep separate PostgreSQL schemas apart', async () => {
    const [one, two] = [testDatabase('postgres'), testDatabase('postgres')];
    const [a, b] = [await one.open(), await two.open()];
    try {
      await a.db.insertInto('usage_ledger').values(row('req_3')).execute();
      expect(await b.db.selectFrom('usage_ledger').selectAll().execute()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
      await one.remove();
      await two.remove();
    }
  });

  it('should name where it is without the password', async () => {
    const url = new URL(DATABASE_URL);
    url.password = 'hunter2';
    const store = testDatabase('postgres');
    // Trust auth ignores the password; the location must not show it.
    const database = await store.open({ url: url.toString() });
    try {
      expect(database.location).not.toContain('hunter2');
    } finally {
      await database.close();
      await store.remove();
    }
  });

  it('should refuse a schema name that is not a plain identifier', async () => {
    await expect(openDatabase({ url: DATABASE_URL, schema: 'x"; drop table y; --' })).rejects.toMatchObject({
      code: 'CONFIG_DATABASE_SCHEMA_INVALID',
    });
  });
});
