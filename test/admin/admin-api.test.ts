import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const ADMIN_KEY = 'admin-0123456789abcdef';
const scratch = useScratch();

async function serve(): Promise<RunningGateway> {
  const running = await startGateway(
    {
      database: scratch.file('admin'),
      adminKey: ADMIN_KEY,
      ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
      models: [{ id: 'mock', provider: 'mock', price: { input: 2, output: 8 } }],
    },
    '/gateway',
  );
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

async function call(running: RunningGateway, method: string, path: string, body?: unknown, key = ADMIN_KEY) {
  const response = await fetch(`${running.root}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), body: (await response.json()) as Record<string, any> };
}

describe('the admin API', () => {
  it('should create a key shown once, list it with its spend, and revoke it', async () => {
    const running = await serve();
    const created = await call(running, 'POST', '/admin/keys', { name: 'team-a', models: ['mock'], budget: { usd: 5, period: 'day' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'team-a', models: ['mock'], budget: { nanoUsd: 5e9, period: 'day' } });
    const key = created.body.key as string;
    const publicId = created.body.publicId as string;

    const openai = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    // The row is written off the request path: poll the usage until it is there.
    let listed: Record<string, any> = {};
    for (let tries = 0; tries < 100; tries += 1) {
      listed = (await call(running, 'GET', '/admin/keys')).body;
      if (listed.data?.[0]?.usage) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ publicId, name: 'team-a', usage: { requests: 1, unpriced: 0 } });
    expect(listed.data[0].usage.costNanoUsd).toBeGreaterThan(0);
    expect(JSON.stringify(listed)).not.toContain(key);

    const usage = await call(running, 'GET', '/admin/usage?by=model');
    expect(usage.body.data).toEqual([expect.objectContaining({ group: 'mock', requests: 1 })]);
    const ledger = await call(running, 'GET', '/admin/ledger');
    expect(ledger.body).toMatchObject({ written: 1, waiting: 0, failedWrites: 0 });

    expect((await call(running, 'DELETE', `/admin/keys/${publicId}`)).body).toEqual({ publicId, revoked: true });
    const refused = await openai.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('api_key_revoked');
    expect((await call(running, 'DELETE', `/admin/keys/${publicId}`)).status).toBe(404);
  });

  it('should refuse a gateway key or a wrong admin key, and bad input, with an error body and a request id', async () => {
    const running = await serve();
    const { body } = await call(running, 'POST', '/admin/keys', { name: 'x' });
    const wrong = await call(running, 'GET', '/admin/keys', undefined, body.key as string);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_admin_key');
    expect(wrong.requestId).toMatch(/^req_/);
    const noName = await call(running, 'POST', '/admin/keys', { models: ['mock'] });
    expect(noName.status).toBe(400);
    expect(noName.body.error.param).toBe('name');
    expect((await call(running, 'GET', '/admin/usage?by=week')).status).toBe(400);
    const badLimit = await call(running, 'POST', '/admin/keys', { name: 'x', limits: { requests_per_minute: 0 } });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.param).toBe('limits.requests_per_minute');
    const limited = await call(running, 'POST', '/admin/keys', { name: 'y', limits: { tokens_per_minute: 5000, concurrency: 2 } });
    expect(limited.body).toMatchObject({ limits: { tokensPerMinute: 5000, concurrency: 2 } });
    expect((await call(running, 'GET', '/admin/nothing')).status).toBe(404);
  });

  it('should need a database and a long enough admin key', () => {
    const codeOf = (run: () => unknown) => {
      try {
        run();
        return 'ok';
      } catch (error) {
        return GatewayError.isInstance(error) ? error.code : 'other';
      }
    };
    expect(codeOf(() => gateway({ adminKey: ADMIN_KEY, logger: silentLogger }))).toBe('CONFIG_ADMIN_NEEDS_DATABASE');
    expect(codeOf(() => gateway({ adminKey: 'short', database: ':memory:', logger: silentLogger }))).toBe('CONFIG_ADMIN_KEY_WEAK');
  });
});
