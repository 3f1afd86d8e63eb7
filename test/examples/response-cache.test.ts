import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../examples/response-cache/app.js';
import { responseCache, CACHE_HEADER } from '../../examples/response-cache/response-cache.js';
import { memoryCacheStore, redisCacheStore } from '../../examples/response-cache/stores.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { answerFor, startProtocolUpstream } from '../helpers/protocol-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const scratch = useScratch();
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await startProtocolUpstream();
});
afterAll(() => upstream.close());

/** A gateway with the cache in front of a Chat upstream that answers "ok", its ledger in a SQLite file. */
async function serve(store = memoryCacheStore()): Promise<{ running: RunningGateway; database: string }> {
  const database = scratch.file('cache');
  const options: GatewayOptions = {
    providers: { openai: createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'gpt', provider: 'openai', upstreamModel: 'up', price: { input: 1, output: 1 } }],
    database,
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    stages: [responseCache({ store })],
  };
  const running = await startGateway(options);
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return { running, database };
}

/** Each question is new to the cache: the upstream must be asked once, then never again. */
const question = () => `What is ${randomBytes(4).toString('hex')}?`;

async function ledgerRows(database: string, count: number) {
  const direct = await openDatabase({ url: database, migrate: false });
  try {
    for (let tries = 0; tries < 200; tries += 1) {
      const rows = await direct.db.selectFrom('usage_ledger').selectAll().orderBy('at').execute();
      if (rows.length >= count) return rows;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`expected ${count} ledger rows`);
  } finally {
    await direct.close();
  }
}

describe('examples/response-cache', () => {
  it('should answer a repeated Chat request from the cache, streamed or not, without calling the provider', async () => {
    const { running, database } = await serve();
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const content = question();
    const before = upstream.requests.length;
    const first = await client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content }] }).withResponse();
    expect(first.response.headers.get(CACHE_HEADER)).toBe('miss');
    const second = await client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content }] }).withResponse();
    expect(second.response.headers.get(CACHE_HEADER)).toBe('hit');
    expect(second.data.choices[0]?.message.content).toBe('ok');
    // The same question streamed: the cached answer, as a stream.
    const stream = await client.chat.completions.create({ model: 'gpt', stream: true, messages: [{ role: 'user', content }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('ok');
    expect(upstream.requests.length - before).toBe(1);

    const rows = await ledgerRows(database, 3);
    expect(rows.map((row) => [row.deployment, row.usage_source, row.cost_nano_usd === 0])).toEqual([
      ['openai/up', 'reported', false],
      ['stage:response-cache', 'stage', true],
      ['stage:response-cache', 'stage', true],
    ]);
    // A hit is billed nothing and counts no upstream tokens (unknown, never 0).
    expect(rows[1]).toMatchObject({ provider: null, input_tokens: null, output_tokens: null, billing: 'complete', attempt: 0 });
  });

  it('should store a streamed answer once it finished, and replay it to a Responses and a Messages client', async () => {
    const { running } = await serve();
    const content = question();
    const before = upstream.requests.length;
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const stream = await openai.responses.create({ model: 'gpt', stream: true, input: content });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');

    const replayed = await openai.responses.create({ model: 'gpt', stream: true, input: content });
    let text = '';
    for await (const event of replayed) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('ok');
    const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    // Another protocol decodes to another request (its own defaults): a miss first, then a hit.
    const ask = () => anthropic.messages.create({ model: 'gpt', max_tokens: 64, messages: [{ role: 'user', content }] });
    await ask();
    const message = await ask();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
    const streamed = anthropic.messages.stream({ model: 'gpt', max_tokens: 64, messages: [{ role: 'user', content }] });
    expect((await streamed.finalMessage()).content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
    expect(upstream.requests.length - before).toBe(2);
  });

  it("should keep one key's answers from another key", async () => {
    const { running } = await serve();
    const { key } = await running.gateway.keys!.create({ name: 'other' });
    const content = question();
    const before = upstream.requests.length;
    for (const apiKey of [TEST_KEY, key, key]) {
      await new OpenAI({ apiKey, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
        model: 'gpt',
        messages: [{ role: 'user', content }],
      });
    }
    expect(upstream.requests.length - before).toBe(2);
  });

  it('should not store a failed answer', async () => {
    const { running } = await serve();
    const content = question();
    upstream.reply({ status: 503, json: { error: { message: 'busy', type: 'server_error' } } });
    try {
      const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
      await expect(client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content }] })).rejects.toThrow();
      const before = upstream.requests.length;
      await expect(client.chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content }] })).rejects.toThrow();
      expect(upstream.requests.length - before).toBeGreaterThan(0);
    } finally {
      upstream.reply(answerFor);
    }
  });

  it('should share entries between two instances through Redis', async () => {
    const prefix = `test:cache:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(REDIS_URL);
    scratch.later(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
    const one = await serve(redisCacheStore(redis, prefix));
    const two = await serve(redisCacheStore(redis, prefix));
    const content = question();
    const before = upstream.requests.length;
    for (const { running } of [one, two]) {
      await new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
        model: 'gpt',
        messages: [{ role: 'user', content }],
      });
    }
    expect(upstream.requests.length - before).toBe(1);
  });

  it('should run as the example app', async () => {
    const app = createApp({ apiKeys: ['sk-cache-example'], logger: silentLogger });
    const ask = () =>
      request(app)
        .post('/v1/chat/completions')
        .set('authorization', 'Bearer sk-cache-example')
        .send({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    expect((await ask()).headers[CACHE_HEADER]).toBe('miss');
    const hit = await ask();
    expect(hit.status).toBe(200);
    expect(hit.headers[CACHE_HEADER]).toBe('hit');
  });
});
