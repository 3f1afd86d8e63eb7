import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxCostOf } from '../../src/catalog/cost.js';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { inputTokenBound } from '../../src/usage/input-token-bound.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';
import { startRedisServer, type RedisServerProcess } from '../helpers/redis-server-process.js';

/** $1 per million tokens either way. */
const price = { input: 1, output: 1 };
const MAX_TOKENS = 40;
/** What each request below reserves: the gateway's own bound of its input, plus its output allowance. */
const RESERVED = maxCostOf(
  inputTokenBound({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] } as unknown as CanonicalRequest),
  MAX_TOKENS,
  price,
);
/** Room for this many reservations at once. */
const ROOM = 25;
/** Well past the 1 s deadline, and well short of a request that waits for Redis to come back. */
const REFUSED_WITHIN_MS = 5_000;

const scratch = useScratch();
let redis: RedisServerProcess;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});

async function serve(): Promise<RunningGateway> {
  const running = await startGateway({
    providers: { mock: createMockProvider() },
    models: [{ id: 'priced', provider: 'mock', price }],
    database: { url: scratch.file('budget') },
    redis: redis.url,
    redisPrefix: `test:${randomBytes(6).toString('hex')}:`,
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

interface Outcome {
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  ms: number;
}

/** One Chat request; a request that hangs is cut after a while (it then reads as status 0). */
async function ask(running: RunningGateway, key: string): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'priced', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'Hi' }] }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { error?: { code?: string } };
    return {
      status: response.status,
      code: body.error?.code,
      retryAfter: response.headers.get('retry-after'),
      ms: performance.now() - started,
    };
  } catch {
    return { status: 0, code: 'hung', retryAfter: null, ms: performance.now() - started };
  }
}

const many = (running: RunningGateway, key: string, count: number) => Promise.all(Array.from({ length: count }, () => ask(running, key)));

/** Asks until a request gets through (Redis back and reconnected), within a generous bound. */
async function untilAdmitted(running: RunningGateway, key: string): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (Date.now() < giveUpAt) {
    if ((await ask(running, key)).status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no request was admitted within 30 s of Redis coming back');
}

function expectRefusedQuickly(outcomes: Outcome[]): void {
  for (const outcome of outcomes) {
    expect({ status: outcome.status, code: outcome.code, retryAfter: outcome.retryAfter }).toEqual({
      status: 503,
      code: 'budget_unavailable',
      retryAfter: '1',
    });
    expect(outcome.ms).toBeLessThan(REFUSED_WITHIN_MS);
  }
}

describe('budget counters in a Redis that stops or freezes', () => {
  it('should refuse budgeted requests with 503 budget_unavailable within the deadline while Redis is down, and count right once it is back', async () => {
    const running = await serve();
    const { key } = await running.gateway.keys!.create({ name: 'budgeted', budget: { nanoUsd: RESERVED * ROOM, period: 'day' } });
    expect((await ask(running, key)).status).toBe(200);

    await redis.kill();
    try {
      expectRefusedQuickly(await many(running, key, 20));
    } finally {
      await redis.restart();
    }
    await untilAdmitted(running, key);
    // Room for ROOM reservations at once, less the little spent: all of these fit when nothing stayed counted.
    const after = await many(running, key, ROOM - 5);
    expect(after.map((outcome) => outcome.status)).toEqual(after.map(() => 200));
  });

  it('should refuse budgeted requests within the deadline while Redis is frozen, and give back the reservations that ran late', async () => {
    const running = await serve();
    const { key } = await running.gateway.keys!.create({ name: 'budgeted', budget: { nanoUsd: RESERVED * ROOM, period: 'day' } });
    expect((await ask(running, key)).status).toBe(200);

    redis.freeze();
    try {
      // Each of these reservations fits: once Redis runs them, late, they would take 20 of the 25 places.
      expectRefusedQuickly(await many(running, key, 20));
    } finally {
      redis.thaw();
    }
    await untilAdmitted(running, key);
    const after = await many(running, key, ROOM - 5);
    expect(after.map((outcome) => outcome.status)).toEqual(after.map(() => 200));
  });
});
