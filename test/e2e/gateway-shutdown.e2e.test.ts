// What `interrupt()` and `close()` leave behind: the ledger written, concurrency leases given back
// in Redis (not left to expire), cooldown writes done, and no connection open to a provider.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/storage/open-database.js';
import { startFaultUpstream } from '../helpers/fault-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY } from '../helpers/start-gateway.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const scratch = useScratch();
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

/** Members of every sorted set (the concurrency leases) under `prefix`. */
async function leasesUnder(prefix: string): Promise<number> {
  let members = 0;
  for (const key of await redis.keys(`${prefix}*`)) if ((await redis.type(key)) === 'zset') members += await redis.zcard(key);
  return members;
}

describe('gateway close', () => {
  it('should write the ledger, give leases back and close provider connections', async () => {
    const upstream = await startFaultUpstream();
    scratch.later(() => upstream.close());
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    scratch.later(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    // A slow network to Redis: what is still on its way there when close() begins must not be dropped.
    const target = new URL(REDIS_URL);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 6379), { delayMs: 100 });
    scratch.later(() => relay.close());
    const database = scratch.database('sqlite');
    const running = await startGateway({
      database,
      redis: `redis://127.0.0.1:${relay.port}`,
      redisPrefix: prefix,
      providers: {
        up: { type: 'openai', apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
        spare: { type: 'openai', apiKey: 'sk-spare', baseURL: `${upstream.url}/v1` },
      },
      limits: { perKey: { concurrency: 4 } },
      models: [{ id: 'm', deployments: [{ provider: 'up' }, { provider: 'spare' }], upstreamModel: 'gpt-m' }],
      ledger: { outbox: scratch.file('outbox'), intervalMs: 60_000 },
    });
    scratch.later(() => running.close());
    await running.gateway.ready();
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });

    // One answered request (its connection stays open for reuse), and one still waiting for its upstream.
    await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    upstream.script({ kind: 'ok', delayMs: 5_000 });
    const waiting = openai.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error as { status?: number });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(2));
    expect(await leasesUnder(prefix)).toBe(1);
    expect(upstream.openConnections()).toBeGreaterThanOrEqual(1);

    expect(running.gateway.interrupt()).toBe(1);
    expect(((await waiting) as { status?: number }).status).toBe(503);
    await running.gateway.close();

    expect(await leasesUnder(prefix)).toBe(0);
    // The server learns of the closed connections a moment later.
    await vi.waitFor(() => expect(upstream.openConnections()).toBe(0), { timeout: 2_000 });
    // The ledger waited 60 s between writes: close wrote both rows now.
    const direct = await openDatabase({ ...database, migrate: false });
    try {
      const rows = await direct.db.selectFrom('usage_ledger').select(['status', 'error_code']).orderBy('at').execute();
      expect(rows).toEqual([
        { status: 200, error_code: null },
        { status: 503, error_code: 'SHUTTING_DOWN' },
      ]);
    } finally {
      await direct.close();
    }
  });
});

describe('gateway close without a database', () => {
  it('should give leases back over its own Redis connection before closing it', async () => {
    const upstream = await startFaultUpstream();
    scratch.later(() => upstream.close());
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    scratch.later(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    });
    const target = new URL(REDIS_URL);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 6379), { delayMs: 100 });
    scratch.later(() => relay.close());
    const running = await startGateway({
      redis: `redis://127.0.0.1:${relay.port}`,
      redisPrefix: prefix,
      providers: { up: { type: 'openai', apiKey: 'sk-up', baseURL: `${upstream.url}/v1` } },
      limits: { perKey: { concurrency: 4 } },
      models: [{ id: 'm', provider: 'up', upstreamModel: 'gpt-m' }],
    });
    scratch.later(() => running.close());
    upstream.script({ kind: 'ok', delayMs: 5_000 });
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const waiting = openai.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error as { status?: number });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(1));
    expect(await leasesUnder(prefix)).toBe(1);

    running.gateway.interrupt();
    expect(((await waiting) as { status?: number }).status).toBe(503);
    await running.gateway.close();
    expect(await leasesUnder(prefix)).toBe(0);
  });
});
