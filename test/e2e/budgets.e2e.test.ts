import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { openDatabase } from '../../src/storage/open-database.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { spentSince } from '../../src/usage/usage-queries.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** $1 per million tokens either way: 1,000 nano-USD per token. */
const price = { input: 1, output: 1 };

const scratch = useScratch();

async function serve(options: GatewayOptions): Promise<RunningGateway> {
  const running = await startGateway({
    // Streams of a few paced deltas, so that many requests are in flight at once.
    providers: { paced: createMockProvider({ chunkDelayMs: 5 }) },
    models: [
      { id: 'priced', provider: 'paced', price },
      { id: 'free-text', provider: 'paced' },
    ],
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    ...options,
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

/** One streamed request through the openai SDK: 'ok', or the error's code. */
async function ask(client: OpenAI): Promise<string> {
  try {
    const stream = await client.chat.completions.create({
      model: 'priced',
      max_tokens: 40,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    for await (const chunk of stream) void chunk;
    return 'ok';
  } catch (error) {
    if (error instanceof OpenAI.APIError) return `${error.status} ${String(error.code)}`;
    throw error;
  }
}

/** The real cost of one request, as the ledger prices it. */
async function costOfOne(running: RunningGateway, database: { url: string; schema?: string }): Promise<number> {
  const { key, stored } = await running.gateway.keys!.create({ name: 'probe' });
  expect(await ask(new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 }))).toBe('ok');
  // The ledger row is written off the request path: wait for it.
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    for (let tries = 0; tries < 100; tries += 1) {
      const spent = await spentSince(direct.db, stored.publicId, 0);
      if (spent > 0) return spent;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await direct.close();
  }
  throw new Error('the probe request was never recorded');
}

async function spentOf(database: { url: string; schema?: string }, keyId: string): Promise<number> {
  const direct = await openDatabase({ ...database, migrate: false });
  try {
    return await spentSince(direct.db, keyId, 0);
  } finally {
    await direct.close();
  }
}

describe('key budgets', () => {
  it('should never spend more than the budget under 200 concurrent requests (one instance, SQLite)', async () => {
    const database = { url: scratch.file('budget') };
    const running = await serve({ database });
    const perRequest = await costOfOne(running, database);
    const { key, stored } = await running.gateway.keys!.create({ name: 'budgeted', budget: { nanoUsd: perRequest * 50, period: 'month' } });
    const client = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });

    const outcomes = await Promise.all(Array.from({ length: 200 }, () => ask(client)));
    const succeeded = outcomes.filter((outcome) => outcome === 'ok').length;
    // Refused for good once spent, or to retry while the reservations of requests under way hold the rest.
    expect(
      outcomes
        .filter((outcome) => outcome !== 'ok')
        .every((outcome) => outcome === '429 insufficient_quota' || outcome === '429 budget_busy'),
    ).toBe(true);
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThanOrEqual(50);

    await running.gateway.close();
    expect(await spentOf(database, stored.publicId)).toBeLessThanOrEqual(perRequest * 50);
  });

  it('should hold two instances sharing PostgreSQL and Redis to one budget', async () => {
    const database = scratch.postgres();
    const shared = { database, redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:` };
    const first = await serve(shared);
    const second = await serve(shared);
    const perRequest = await costOfOne(first, database);
    const { key, stored } = await first.gateway.keys!.create({
      name: 'shared budget',
      budget: { nanoUsd: perRequest * 50, period: 'day' },
    });
    const clients = [first, second].map((running) => new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 }));

    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, index) => ask(clients[index % 2]!)));
    const succeeded = outcomes.filter((outcome) => outcome === 'ok').length;
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThanOrEqual(50);
    expect(
      outcomes
        .filter((outcome) => outcome !== 'ok')
        .every((outcome) => outcome === '429 insufficient_quota' || outcome === '429 budget_busy'),
    ).toBe(true);

    await first.gateway.close();
    await second.gateway.close();
    expect(await spentOf(database, stored.publicId)).toBeLessThanOrEqual(perRequest * 50);
  });

  it('should answer an exhausted budget in each protocol: OpenAI insufficient_quota, Anthropic billing_error, naming the key and the reset', async () => {
    const running = await serve({ database: { url: scratch.file('budget') } });
    const { key, stored } = await running.gateway.keys!.create({ name: 'tiny', budget: { nanoUsd: 1, period: 'day' } });

    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const refused = await openai.chat.completions
      .create({ model: 'priced', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const openaiError = refused as InstanceType<typeof OpenAI.RateLimitError>;
    expect(openaiError.code).toBe('insufficient_quota');
    expect(openaiError.type).toBe('insufficient_quota');
    expect(openaiError.message).toContain(stored.publicId);
    expect(openaiError.message).toMatch(/resets at \d{4}-\d{2}-\d{2}T00:00:00\.000Z/);
    expect(openaiError.headers?.get('x-should-retry')).toBe('false');

    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
    const billing = await anthropic.messages
      .create({ model: 'priced', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(billing).toBeInstanceOf(Anthropic.APIError);
    expect((billing as InstanceType<typeof Anthropic.APIError>).status).toBe(402);
    expect((billing as { error?: { error?: { type?: string } } }).error?.error?.type).toBe('billing_error');
  });

  it('should refuse a budgeted key on a model without a price, rather than spend without counting', async () => {
    const running = await serve({ database: { url: scratch.file('budget') } });
    const { key } = await running.gateway.keys!.create({ name: 'budgeted', budget: { nanoUsd: 1e9, period: 'never' } });
    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const refused = await openai.chat.completions
      .create({ model: 'free-text', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('model_unpriced');
  });
});
