import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { useScratch } from '../helpers/scratch.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

const KEY = 'sk-operations-endpoints-test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const scratch = useScratch();

async function start(options: GatewayOptions = {}): Promise<RunningServer> {
  const server = await startServer(
    { apiKeys: [KEY], logger: silentLogger, ...options },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 0 },
  );
  // Closes the gateway too: its Redis clients stop reconnecting to a relay that is gone.
  scratch.later(() => server.close().done);
  return server;
}

const scrape = (server: RunningServer) =>
  fetch(`${server.root}/metrics`).then(async (response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  }));

/** The value of one sample line (`name{labels} value`) of a scrape, undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`));
    if (matches) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics of the standalone server', () => {
  it('should count SDK requests by protocol, model and status, with latency and first-token histograms and tokens', async () => {
    const server = await start();
    const openai = new OpenAI({ apiKey: KEY, baseURL: server.openAIBaseURL, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: KEY, baseURL: server.root, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello again' }] });
    for await (const event of await openai.chat.completions.create({
      model: 'mock',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    }))
      void event;
    await openai.responses.create({ model: 'mock', input: 'Hello' });
    await anthropic.messages.create({ model: 'mock', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] });
    await openai.chat.completions.create({ model: 'missing', messages: [{ role: 'user', content: 'Hello' }] }).catch(() => undefined);

    const { status, type, text } = await scrape(server);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sample(text, 'switchyard_requests_total', { protocol: 'chat', model: 'mock', status: '200' })).toBe(3);
    expect(sample(text, 'switchyard_requests_total', { protocol: 'responses', model: 'mock', status: '200' })).toBe(1);
    expect(sample(text, 'switchyard_requests_total', { protocol: 'messages', model: 'mock', status: '200' })).toBe(1);
    expect(sample(text, 'switchyard_requests_total', { protocol: 'chat', model: 'unknown', status: '404' })).toBe(1);
    // Every request falls in the +Inf bucket; the histogram's buckets are the documented ones.
    expect(sample(text, 'switchyard_request_duration_seconds_bucket', { le: '+Inf', protocol: 'chat', model: 'mock' })).toBe(3);
    expect(sample(text, 'switchyard_request_duration_seconds_bucket', { le: '300', protocol: 'chat', model: 'mock' })).toBe(3);
    expect(sample(text, 'switchyard_request_duration_seconds_count', { protocol: 'messages', model: 'mock' })).toBe(1);
    expect(sample(text, 'switchyard_time_to_first_token_seconds_count', { protocol: 'chat', model: 'mock' })).toBe(1);
    expect(sample(text, 'switchyard_time_to_first_token_seconds_bucket', { le: '0.05', protocol: 'chat', model: 'mock' })).toBeDefined();
    expect(sample(text, 'switchyard_tokens_total', { model: 'mock', type: 'input' })).toBeGreaterThan(0);
    expect(sample(text, 'switchyard_tokens_total', { model: 'mock', type: 'output' })).toBeGreaterThan(0);
    expect(sample(text, 'switchyard_open_streams')).toBe(0);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('req_');
  });

  it('should count a stream as open while it sends, and not after', async () => {
    const server = await start({
      providers: { slow: createMockProvider({ chunks: 40, chunkDelayMs: 50 }) },
      models: [{ id: 'slow', provider: 'slow' }],
    });
    const openai = new OpenAI({ apiKey: KEY, baseURL: server.openAIBaseURL, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const during = (await scrape(server)).text;
    expect(sample(during, 'switchyard_open_streams')).toBe(1);
    expect(sample(during, 'switchyard_open_requests')).toBe(1);
    for (let next = await iterator.next(); !next.done; next = await iterator.next());
    const after = (await scrape(server)).text;
    expect(sample(after, 'switchyard_open_streams')).toBe(0);
    expect(sample(after, 'switchyard_time_to_first_token_seconds_count', { protocol: 'chat', model: 'slow' })).toBe(1);
  });

  it('should count limiter rejections', async () => {
    const server = await start({ limits: { perKey: { requestsPerMinute: 1 } } });
    const openai = new OpenAI({ apiKey: KEY, baseURL: server.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    const refused = await openai.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const { text } = await scrape(server);
    expect(sample(text, 'switchyard_limit_rejections_total')).toBe(1);
    expect(sample(text, 'switchyard_requests_total', { protocol: 'chat', status: '429' })).toBe(1);
  });

  it('should report the ledger backlog and written rows with a database', async () => {
    const database = scratch.file('metrics-ledger');
    const server = await start({ database, ledger: { intervalMs: 10 } });
    const openai = new OpenAI({ apiKey: KEY, baseURL: server.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] });
    let text = '';
    for (let attempt = 0; attempt < 100; attempt++) {
      text = (await scrape(server)).text;
      if (sample(text, 'switchyard_ledger_rows_written_total') === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sample(text, 'switchyard_ledger_rows_written_total')).toBe(1);
    expect(sample(text, 'switchyard_ledger_backlog_rows')).toBe(0);
  });

  it('should not serve metrics when the options turn them off', async () => {
    const server = await start({ metrics: false });
    expect((await scrape(server)).status).toBe(404);
  });
});

describe('GET /health and GET /ready of the standalone server', () => {
  it('should be live and ready without a database or Redis', async () => {
    const server = await start();
    const health = await fetch(`${server.root}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.root}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: {} });
  });

  it('should answer 503 naming Redis while it cannot be reached, and 200 again once it is back; /health stays 200', async () => {
    const redisUrl = new URL(REDIS_URL);
    const relay = await startTcpRelay(redisUrl.hostname, Number(redisUrl.port || 6379));
    scratch.later(() => relay.close());
    const server = await start({
      database: scratch.file('ready'),
      redis: `redis://127.0.0.1:${relay.port}`,
      redisPrefix: `test:${randomBytes(6).toString('hex')}:`,
    });
    const readiness = async () => {
      const response = await fetch(`${server.root}/ready`);
      return {
        status: response.status,
        body: (await response.json()) as { status: string; checks: Record<string, { ok: boolean; error?: string }> },
      };
    };
    expect(await readiness()).toEqual({ status: 200, body: { status: 'ready', checks: { database: { ok: true }, redis: { ok: true } } } });

    await relay.cut();
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('not_ready');
    expect(down.body.checks.database).toEqual({ ok: true });
    expect(down.body.checks.redis).toEqual({ ok: false, error: expect.any(String) });
    expect((await fetch(`${server.root}/health`)).status).toBe(200);

    await relay.restore();
    let back = await readiness();
    for (let attempt = 0; attempt < 50 && back.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await readiness();
    }
    expect(back.status).toBe(200);
  });

  it('should answer 503 naming the database while PostgreSQL cannot be reached', async () => {
    const { url, schema } = scratch.postgres();
    const target = new URL(url);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
    scratch.later(() => relay.close());
    target.host = `127.0.0.1:${relay.port}`;
    // An outbox of its own: the default for PostgreSQL is ./switchyard-outbox.db, in the repository.
    const server = await start({ database: { url: target.toString(), schema }, ledger: { outbox: scratch.file('ready-pg.outbox') } });
    expect((await fetch(`${server.root}/ready`)).status).toBe(200);
    await relay.cut();
    const response = await fetch(`${server.root}/ready`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'not_ready', checks: { database: { ok: false, error: expect.any(String) } } });
    await relay.restore();
  });
});
