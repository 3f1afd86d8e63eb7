import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { startPacedChatUpstream, type PacedChatUpstream } from '../helpers/paced-chat-upstream.js';
import { startRedisServer, type RedisServerProcess } from '../helpers/redis-server-process.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY } from '../helpers/start-gateway.js';

const scratch = useScratch();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CONCURRENCY = 3;
const WORKERS = 8;

interface Load {
  /** Every answer so far: when it came, and 'ok' or its HTTP status. */
  readonly answers: Array<{ at: number; outcome: 'ok' | number }>;
  /** The most requests the upstream answered at once since `window()` was last called. */
  window(): number;
  stop(): Promise<void>;
}

/** Clients asking without pause through both instances (a short pause after a refusal), while the upstream's requests in flight are sampled. */
function startLoad(clients: OpenAI[], upstream: PacedChatUpstream): Load {
  const answers: Load['answers'] = [];
  let running = true;
  let most = 0;
  const sampler = setInterval(() => (most = Math.max(most, upstream.inFlight)), 2);
  const worker = async (client: OpenAI) => {
    while (running) {
      const outcome = await client.chat.completions.create({ model: 'paced', messages: [{ role: 'user', content: 'Hi' }] }).then(
        () => 'ok' as const,
        (error: unknown) => (error instanceof OpenAI.APIError ? (error.status ?? 0) : 0),
      );
      answers.push({ at: Date.now(), outcome });
      if (outcome !== 'ok') await sleep(10);
    }
  };
  const workers = Array.from({ length: WORKERS }, (_, index) => worker(clients[index % clients.length]!));
  return {
    answers,
    window() {
      const seen = Math.max(most, upstream.inFlight);
      most = upstream.inFlight;
      return seen;
    },
    async stop() {
      running = false;
      await Promise.all(workers);
      clearInterval(sampler);
    },
  };
}

async function concurrencyUnderLoad(outage: (server: RedisServerProcess) => Promise<void>): Promise<void> {
  const server = await startRedisServer();
  scratch.later(() => server.close());
  const upstream = await startPacedChatUpstream({ delayMs: 10, chunks: 4 });
  scratch.later(() => upstream.close());
  const redisPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const options = {
    providers: { openai: { apiKey: 'sk-upstream', baseURL: upstream.baseURL } },
    models: [{ id: 'paced', provider: 'openai' as const, upstreamModel: 'paced' }],
    redis: server.url,
    redisPrefix,
    limits: { perKey: { concurrency: CONCURRENCY }, storeTimeoutMs: 300 },
    metrics: true,
  };
  const clients: OpenAI[] = [];
  const registries: Registry[] = [];
  for (let index = 0; index < 2; index += 1) {
    const instance = await startGateway(options);
    scratch.later(() => instance.gateway.close());
    scratch.later(() => instance.close());
    clients.push(new OpenAI({ apiKey: TEST_KEY, baseURL: instance.openAIBaseURL, maxRetries: 0 }));
    registries.push(instance.gateway.metrics!);
  }
  /** Limit-store calls that failed or timed out, both instances together: unchanged while they count in Redis. */
  const storeFailures = async () => {
    let total = 0;
    for (const registry of registries)
      total += (await registry.getSingleMetric('switchyard_limit_store_failures_total')!.get()).values[0]?.value ?? 0;
    return total;
  };
  const load = startLoad(clients, upstream);
  scratch.later(() => load.stop());
  const oksSince = (since: number) => load.answers.filter((answer) => answer.at >= since && answer.outcome === 'ok').length;

  const startedAt = Date.now();
  while (oksSince(startedAt) < 20) await sleep(50);
  expect(load.window()).toBeLessThanOrEqual(CONCURRENCY);

  await outage(server);
  const backAt = Date.now();

  // Back on Redis: a stretch with requests admitted, every one of them counted in Redis (no store
  // failure: none admitted without limits), and no more at once than the limit.
  let recoveredAt: number | undefined;
  while (recoveredAt === undefined && Date.now() - backAt < 20_000) {
    load.window();
    const failures = await storeFailures();
    const from = Date.now();
    await sleep(300);
    if (oksSince(from) >= 5 && load.window() <= CONCURRENCY && (await storeFailures()) === failures) recoveredAt = Date.now();
  }
  expect(recoveredAt, 'admissions under the limit resumed').toBeDefined();
  // Well within a lease (60 s): slots taken by calls given up during the outage are not waiting to expire.
  expect(recoveredAt! - backAt).toBeLessThan(10_000);

  // The limit holds from then on, with Redis counting every request in flight.
  const watch = new Redis(server.url);
  scratch.later(() => watch.disconnect());
  const leases = `${redisPrefix}limits:v1:key:options:concurrent`;
  let mostLeases = 0;
  const from = Date.now();
  const failures = await storeFailures();
  load.window();
  while (Date.now() - from < 1_500) {
    mostLeases = Math.max(mostLeases, await watch.zcard(leases));
    await sleep(10);
  }
  expect(load.window()).toBeLessThanOrEqual(CONCURRENCY);
  expect(mostLeases).toBeLessThanOrEqual(CONCURRENCY);
  expect(oksSince(from)).toBeGreaterThanOrEqual(10);
  expect(await storeFailures()).toBe(failures);
  const after = load.answers.filter((answer) => answer.at >= from);
  expect(after.filter((answer) => answer.outcome !== 'ok' && answer.outcome !== 429)).toEqual([]);

  // Nothing is left behind: once every request ended, every slot is free.
  await load.stop();
  const stoppedAt = Date.now();
  while ((await watch.zcard(leases)) > 0 && Date.now() - stoppedAt < 5_000) await sleep(20);
  expect(await watch.zcard(leases)).toBe(0);
}

describe('a concurrency limit in Redis, two instances under load, when Redis goes away and comes back', () => {
  it('admits again at once after Redis is killed and restarted, and the limit holds', { timeout: 60_000 }, async () => {
    await concurrencyUnderLoad(async (server) => {
      await server.kill();
      await sleep(2_000);
      await server.restart();
    });
  });

  it('admits again at once after Redis is frozen and thawed, and the limit holds', { timeout: 60_000 }, async () => {
    await concurrencyUnderLoad(async (server) => {
      server.freeze();
      await sleep(2_000);
      server.thaw();
    });
  });
});
