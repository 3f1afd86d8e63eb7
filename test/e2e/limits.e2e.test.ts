import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startPacedChatUpstream, type PacedChatOptions, type PacedChatUpstream } from '../helpers/paced-chat-upstream.js';
import { useScratch } from '../helpers/scratch.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';
import { cleanEnv, readBanner, spawnCli } from '../server/spawn-cli.js';
import type { Logger } from '../../src/logger.js';
import { createMockProvider } from '../../src/providers/mock/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const scratch = useScratch();

async function upstreamOf(options: PacedChatOptions = {}): Promise<PacedChatUpstream> {
  const upstream = await startPacedChatUpstream(options);
  scratch.later(() => upstream.close());
  return upstream;
}

async function serve(upstream: PacedChatUpstream, options: GatewayOptions): Promise<RunningGateway> {
  const running = await startGateway({
    providers: { openai: { apiKey: 'sk-upstream', baseURL: upstream.baseURL } },
    models: [{ id: 'paced', provider: 'openai', upstreamModel: 'paced' }],
    ...options,
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  return running;
}

/** Options for instances sharing one Redis under a prefix of their own. */
const sharedRedis = () => ({ redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:` });

const openaiOf = (running: RunningGateway) => new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
const anthropicOf = (running: RunningGateway) => new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });

/** One streamed Chat request: 'ok', or the SDK error it ended with. */
async function streamChat(client: OpenAI, content = 'Hi'): Promise<'ok' | InstanceType<typeof OpenAI.APIError>> {
  try {
    const stream = await client.chat.completions.create({
      model: 'paced',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content }],
    });
    for await (const chunk of stream) void chunk;
    return 'ok';
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
}

describe('limits across two instances sharing Redis', () => {
  it('admits exactly the requests per minute configured, and answers the rest with 429s the SDKs know', async () => {
    const upstream = await upstreamOf({ delayMs: 1 });
    const shared = { ...sharedRedis(), limits: { perKey: { requestsPerMinute: 20 } } };
    const instances = [await serve(upstream, shared), await serve(upstream, shared)];
    const clients = instances.map(openaiOf);

    const startedAt = Date.now();
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, index) => streamChat(clients[index % 2]!)));
    // The 20, and one more for every 3 s the run took (a loaded machine can take that long).
    const refilled = Math.floor((Date.now() - startedAt) / 3_000);
    expect(outcomes.filter((outcome) => outcome === 'ok').length - refilled).toBeLessThanOrEqual(20);
    expect(outcomes.filter((outcome) => outcome === 'ok').length).toBeGreaterThanOrEqual(20);
    const refused = outcomes.filter((outcome) => outcome !== 'ok');
    for (const error of refused) {
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.code).toBe('rate_limit_exceeded');
      expect(error.message).toContain('20 requests per minute');
      // One more request fits every 3 s: the wait is the bucket's, not a whole window.
      const retryAfter = Number(error.headers?.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3);
      expect(error.headers?.get('x-ratelimit-limit-requests')).toBe('20');
      expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    }

    const anthropicRefusal = await anthropicOf(instances[1]!)
      .messages.create({ model: 'paced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(anthropicRefusal).toBeInstanceOf(Anthropic.RateLimitError);
    const anthropicError = anthropicRefusal as InstanceType<typeof Anthropic.RateLimitError>;
    expect((anthropicError.error as { error?: { type?: string } }).error?.type).toBe('rate_limit_error');
    expect(Number(anthropicError.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(anthropicError.headers?.get('anthropic-ratelimit-requests-limit')).toBe('20');
    expect(anthropicError.headers?.get('anthropic-ratelimit-requests-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('never runs more streams at once than the concurrency limit, across both instances', async () => {
    const upstream = await upstreamOf({ delayMs: 15, chunks: 6 });
    const shared = { ...sharedRedis(), limits: { perKey: { concurrency: 3 } } };
    const instances = [await serve(upstream, shared), await serve(upstream, shared)];
    const clients = instances.map(openaiOf);

    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, index) => streamChat(clients[index % 2]!)));
    const succeeded = outcomes.filter((outcome) => outcome === 'ok').length;
    expect(upstream.maxInFlight).toBe(3);
    expect(succeeded).toBeGreaterThanOrEqual(3);
    for (const outcome of outcomes) {
      if (outcome === 'ok') continue;
      expect(outcome).toBeInstanceOf(OpenAI.RateLimitError);
      expect(outcome.message).toContain('Concurrency limit reached for the keys from the options: 3 requests at once');
    }
    // Every slot came back: a new request is admitted.
    expect(await streamChat(clients[0]!)).toBe('ok');
  });

  it('gives a slot back within `givebackWaitMs` when no request follows, so another instance sees it free then', async () => {
    const upstream = await upstreamOf({ delayMs: 1, chunks: 2 });
    const redis = sharedRedis();
    const waiting = await serve(upstream, { ...redis, limits: { perKey: { concurrency: 1 }, givebackWaitMs: 1_000 } });
    const other = await serve(upstream, { ...redis, limits: { perKey: { concurrency: 1 } } });

    expect(await streamChat(openaiOf(waiting))).toBe('ok');
    // Long past the default 10 ms, the first instance's slot still waits for a request of its own
    // to go with: taken, as the other instance sees it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await streamChat(openaiOf(other))).toBeInstanceOf(OpenAI.RateLimitError);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await streamChat(openaiOf(other))).toBe('ok');
  });

  it('holds tokens per minute to the limit, counting streams by the usage they report at the end', async () => {
    // Each answer reports 400 input tokens (for 1,600 characters) and 100 output tokens; a request is counted at an upper
    // bound of its input (a token per character) plus max_tokens until its real usage is known.
    const upstream = await upstreamOf({ delayMs: 2, chunks: 100, promptTokens: 400 });
    const limit = 6_000;
    const shared = { ...sharedRedis(), limits: { perKey: { tokensPerMinute: limit } } };
    const instances = [await serve(upstream, shared), await serve(upstream, shared)];
    const clients = instances.map(openaiOf);
    const content = 'word '.repeat(320);
    const startedAt = Date.now();
    let used = 0;
    let admitted = 0;
    let refused = 0;
    // Waves of concurrent streams: each is admitted on its reservation, then settled to its real usage.
    for (let wave = 0; wave < 8; wave += 1) {
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          const stream = await clients[index % 2]!.chat.completions.create({
            model: 'paced',
            max_tokens: 120,
            stream: true,
            stream_options: { include_usage: true },
            messages: [{ role: 'user', content }],
          }).catch((error: unknown) => error);
          if (stream instanceof Error) return stream;
          let total = 0;
          for await (const chunk of stream as AsyncIterable<OpenAI.ChatCompletionChunk>) total = chunk.usage?.total_tokens ?? total;
          return total;
        }),
      );
      for (const outcome of outcomes) {
        if (typeof outcome === 'number') {
          expect(outcome).toBe(500);
          used += outcome;
          admitted += 1;
        } else {
          expect(outcome).toBeInstanceOf(OpenAI.RateLimitError);
          expect((outcome as Error).message).toContain(`${limit} tokens per minute`);
          refused += 1;
        }
      }
    }
    // Reservations alone (1,720 tokens each) would let 3 or 4 in: what each request did not use came back.
    expect(admitted).toBeGreaterThanOrEqual(6);
    expect(refused).toBeGreaterThan(0);
    // What the bucket refilled while the test ran (6,000 a minute) is all that may pass beyond the limit.
    const refilled = ((Date.now() - startedAt) / 60_000) * limit;
    expect(used).toBeLessThanOrEqual(limit + refilled);
  });
});

describe('concurrency slots', () => {
  it('come back at once when a client leaves mid-stream', async () => {
    const upstream = await upstreamOf({ delayMs: 50, chunks: 100 });
    const running = await serve(upstream, { limits: { perKey: { concurrency: 1 } } });
    const client = openaiOf(running);
    /** Opens a 5 s stream and reads its first chunk: 'ok' once admitted, or the refusal. */
    const open = async (controller: AbortController) => {
      try {
        const stream = await client.chat.completions.create(
          { model: 'paced', stream: true, messages: [{ role: 'user', content: 'long' }] },
          { signal: controller.signal },
        );
        const iterator = stream[Symbol.asyncIterator]();
        await iterator.next();
        return { outcome: 'ok' as const, iterator };
      } catch (error) {
        return { outcome: error, iterator: undefined };
      }
    };
    const first = new AbortController();
    expect((await open(first)).outcome).toBe('ok');
    // Held: a second stream is refused.
    expect((await open(new AbortController())).outcome).toBeInstanceOf(OpenAI.RateLimitError);
    first.abort();
    // Given back as the client leaves, long before the stream would have ended (5 s).
    const leftAt = Date.now();
    let next = await open(new AbortController());
    while (next.outcome !== 'ok' && Date.now() - leftAt < 1_000) next = await open(new AbortController());
    expect(next.outcome).toBe('ok');
    expect(Date.now() - leftAt).toBeLessThan(1_000);
    await next.iterator?.return?.();
  });

  it('let a queued request wait for a slot, in order of arrival, when the key opts in', async () => {
    const upstream = await upstreamOf({ delayMs: 10, chunks: 5 });
    const running = await serve(upstream, { limits: { perKey: { concurrency: 1, queueMs: 5_000 } } });
    const client = openaiOf(running);
    const outcomes: string[] = [];
    const requests = ['first', 'second', 'third', 'fourth'].map(async (content, index) => {
      // Sent in this order, a few ms apart.
      await new Promise((resolve) => setTimeout(resolve, index * 5));
      const outcome = await streamChat(client, content);
      outcomes.push(outcome === 'ok' ? content : outcome.message);
    });
    await Promise.all(requests);
    expect(outcomes).toEqual(['first', 'second', 'third', 'fourth']);
    expect(upstream.received).toEqual(['first', 'second', 'third', 'fourth']);
    expect(upstream.maxInFlight).toBe(1);
  });

  it('refuse a queued request that waited its whole queue time, saying so', async () => {
    const upstream = await upstreamOf({ delayMs: 100, chunks: 10 });
    const running = await serve(upstream, { limits: { perKey: { concurrency: 1, queueMs: 200 } } });
    const client = openaiOf(running);
    const [first, second] = await Promise.all([
      streamChat(client, 'first'),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() => streamChat(client, 'second')),
    ]);
    expect(first).toBe('ok');
    expect(second).toBeInstanceOf(OpenAI.RateLimitError);
    expect((second as Error).message).toMatch(/waited \d+ ms for a slot/);
  });
});

describe('rate-limit headers', () => {
  it('come with every admitted answer, in each protocol’s names', async () => {
    const upstream = await upstreamOf({ delayMs: 1 });
    const running = await serve(upstream, { limits: { perKey: { requestsPerMinute: 100, tokensPerMinute: 100_000 } } });
    const chat = await openaiOf(running)
      .chat.completions.create({ model: 'paced', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(chat.response.headers.get('x-ratelimit-limit-requests')).toBe('100');
    expect(chat.response.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    expect(chat.response.headers.get('x-ratelimit-reset-requests')).toBe('600ms');
    expect(chat.response.headers.get('x-ratelimit-limit-tokens')).toBe('100000');
    expect(Number(chat.response.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(100_000);

    const messages = await anthropicOf(running)
      .messages.create({ model: 'paced', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(messages.response.headers.get('anthropic-ratelimit-requests-limit')).toBe('100');
    expect(messages.response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('98');
    expect(messages.response.headers.get('anthropic-ratelimit-tokens-limit')).toBe('100000');
    expect(Date.parse(messages.response.headers.get('anthropic-ratelimit-tokens-reset') ?? '')).toBeGreaterThan(Date.now() - 1_000);
  });

  it('hold a model to its own limit across keys, and name it', async () => {
    const upstream = await upstreamOf({ delayMs: 1 });
    const running = await serve(upstream, {
      apiKeys: [TEST_KEY],
      models: [{ id: 'paced', provider: 'openai', upstreamModel: 'paced', limits: { requestsPerMinute: 2 } }],
    });
    const client = openaiOf(running);
    expect(await streamChat(client)).toBe('ok');
    expect(await streamChat(client)).toBe('ok');
    const refused = await streamChat(client);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as Error).message).toContain('model paced: 2 requests per minute');
  });
});

describe('an instance killed while holding slots', () => {
  it('loses them when their lease runs out, and another instance takes them', async () => {
    const { redisPrefix } = sharedRedis();
    const config = scratch.file('killed.yaml');
    writeFileSync(
      config,
      `apiKeys: ["${TEST_KEY}"]
database: false
redis: "${REDIS_URL}"
redisPrefix: "${redisPrefix}"
providers:
  slow: { type: mock, chunks: 200, chunkDelayMs: 50 }
models:
  - { id: slow, provider: slow }
limits:
  perKey: { concurrency: 1 }
  leaseMs: 1000
`,
    );
    const child = spawnCli(['serve', '--config', config, '--port', '0'], cleanEnv());
    scratch.later(() => child.stop(2_000));
    const banner = await readBanner(child);
    const held = await new OpenAI({ apiKey: TEST_KEY, baseURL: banner.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
      model: 'slow',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await held[Symbol.asyncIterator]().next();

    const survivor = await startGateway({
      redis: REDIS_URL,
      redisPrefix,
      providers: { slow: createMockProvider() },
      models: [{ id: 'slow', provider: 'slow' }],
      limits: { perKey: { concurrency: 1 }, leaseMs: 1_000 },
    });
    scratch.later(() => survivor.gateway.close());
    scratch.later(() => survivor.close());
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: survivor.openAIBaseURL, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: 'slow', messages: [{ role: 'user', content: 'Hi' }] }).then(
        () => 'ok',
        (error: unknown) => error,
      );
    // The live instance renews its lease: the slot stays taken past the lease time.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await ask()).toBeInstanceOf(OpenAI.RateLimitError);

    child.signal('SIGKILL');
    await child.exited;
    const killedAt = Date.now();
    let outcome = await ask();
    while (outcome !== 'ok' && Date.now() - killedAt < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      outcome = await ask();
    }
    expect(outcome).toBe('ok');
    // Back within the lease (1 s), not at once (the dead process never gave it back).
    expect(Date.now() - killedAt).toBeLessThan(1_500);
  });
});

describe('Redis stopped mid-run', () => {
  it('admits without limits when failing open, refuses with 503 when failing closed, never hangs, logs it, and limits resume when Redis is back', async () => {
    const redisUrl = new URL(REDIS_URL);
    const relay = await startTcpRelay(redisUrl.hostname, Number(redisUrl.port || 6379));
    scratch.later(() => relay.close());
    const logged: string[] = [];
    const capture: Logger = { debug() {}, info() {}, warn() {}, error: (_fields, message) => logged.push(String(message)) };
    const upstream = await upstreamOf({ delayMs: 1 });
    const common = { redis: `redis://127.0.0.1:${relay.port}`, redisPrefix: sharedRedis().redisPrefix, logger: capture };
    const open = await serve(upstream, { ...common, limits: { perKey: { requestsPerMinute: 3 }, storeTimeoutMs: 300 } });
    const closed = await serve(upstream, {
      ...common,
      limits: { perKey: { requestsPerMinute: 3 }, storeTimeoutMs: 300, whenStoreDown: 'closed' },
    });
    const [openClient, closedClient] = [openaiOf(open), openaiOf(closed)];
    const ask = (client: OpenAI) =>
      client.chat.completions.create({ model: 'paced', messages: [{ role: 'user', content: 'Hi' }] }).then(
        () => 'ok',
        (error: unknown) => error,
      );

    for (let i = 0; i < 3; i += 1) expect(await ask(openClient)).toBe('ok');
    expect(await ask(openClient)).toBeInstanceOf(OpenAI.RateLimitError);

    await relay.cut();
    const startedAt = Date.now();
    expect(await ask(openClient)).toBe('ok');
    const refused = await ask(closedClient);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(refused).toBeInstanceOf(OpenAI.InternalServerError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('limits_unavailable');
    expect(logged.some((line) => line.includes('requests are admitted without limits'))).toBe(true);
    expect(logged.some((line) => line.includes('requests are refused with 503'))).toBe(true);

    await relay.restore();
    const restoredAt = Date.now();
    let outcome = await ask(openClient);
    while (!(outcome instanceof OpenAI.RateLimitError) && Date.now() - restoredAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      outcome = await ask(openClient);
    }
    expect(outcome).toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe('stored keys', () => {
  it('are each held to their own limits, with no limits configured', async () => {
    const upstream = await upstreamOf({ delayMs: 50, chunks: 40 });
    const running = await serve(upstream, { database: scratch.file('keys') });
    await running.gateway.ready();
    const solo = await running.gateway.keys!.create({ name: 'solo', limits: { concurrency: 1 } });
    const pair = await running.gateway.keys!.create({ name: 'pair', limits: { concurrency: 2 } });
    const other = await running.gateway.keys!.create({ name: 'other' });
    const clientOf = (key: string) => new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    /** How many of `count` streams opened at once are admitted. */
    const admittedOf = async (key: string, count: number) => {
      const controllers = Array.from({ length: count }, () => new AbortController());
      const outcomes = await Promise.all(
        controllers.map((controller) =>
          clientOf(key)
            .chat.completions.create(
              { model: 'paced', stream: true, messages: [{ role: 'user', content: 'Hi' }] },
              { signal: controller.signal },
            )
            .then(
              (stream) =>
                stream[Symbol.asyncIterator]()
                  .next()
                  .then(() => 'ok'),
              (error: unknown) => error,
            ),
        ),
      );
      for (const controller of controllers) controller.abort();
      for (const outcome of outcomes) if (outcome !== 'ok') expect(outcome).toBeInstanceOf(OpenAI.RateLimitError);
      return outcomes.filter((outcome) => outcome === 'ok').length;
    };
    expect(await admittedOf(solo.key, 3)).toBe(1);
    expect(await admittedOf(pair.key, 3)).toBe(2);
    // A key with no limits of its own and no default: not limited.
    expect(await admittedOf(other.key, 3)).toBe(3);
    const listed = await running.gateway.keys!.list();
    expect(listed.find((key) => key.name === 'solo')?.limits).toEqual({ concurrency: 1 });
  });
});

describe('a burst on a rate limit', () => {
  it.each([
    ['in memory', {}],
    ['in Redis, across two instances', sharedRedis()],
  ])('lets only the burst through at once, the rest told to retry when the next one fits (%s)', async (where, store) => {
    const upstream = await upstreamOf({ delayMs: 1 });
    const options = { ...store, limits: { perKey: { requestsPerMinute: 60, burst: { requests: 2 } } } };
    const instances =
      where === 'in memory' ? [await serve(upstream, options)] : [await serve(upstream, options), await serve(upstream, options)];
    const clients = instances.map(openaiOf);
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => streamChat(clients[index % clients.length]!)));
    expect(outcomes.filter((outcome) => outcome === 'ok')).toHaveLength(2);
    for (const outcome of outcomes) {
      if (outcome === 'ok') continue;
      expect(outcome).toBeInstanceOf(OpenAI.RateLimitError);
      expect(outcome.message).toContain('60 requests per minute');
      // One more fits every second.
      expect(Number(outcome.headers?.get('retry-after'))).toBe(1);
      expect(outcome.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    }
  });
});
