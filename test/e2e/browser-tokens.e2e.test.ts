import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/open-database.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const APP_ORIGIN = 'https://app.example.com';
const scratch = useScratch();

async function serve(database = scratch.file('tokens')): Promise<RunningGateway> {
  const running = await startGateway({
    database,
    apiKeys: [TEST_KEY],
    allowedOrigins: [APP_ORIGIN],
    ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    models: [
      { id: 'mock', provider: 'mock', price: { input: 1, output: 1 } },
      { id: 'mock-2', provider: 'mock', price: { input: 1, output: 1 } },
    ],
  });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

async function mint(running: RunningGateway, key: string, body: unknown = {}) {
  const response = await fetch(`${running.openAIBaseURL}/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

const hello = { model: 'mock', messages: [{ role: 'user' as const, content: 'Hi' }] };
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => String((error as InstanceType<typeof OpenAI.APIError>).code),
  );

describe('browser tokens', () => {
  it('should mint a short-lived token with a stored key, serve it through the SDKs, and record it under its parent', async () => {
    const database = scratch.file('tokens');
    const running = await serve(database);
    const { key, stored } = await running.gateway.keys!.create({ name: 'web backend' });
    const minted = await mint(running, key, { expires_in: 300 });
    expect(minted.status).toBe(201);
    expect(minted.headers.get('cache-control')).toBe('no-store');
    expect(minted.body).toMatchObject({ object: 'browser_token', parent: stored.publicId, models: null, max_spend_usd: null });
    expect(minted.body.token).toMatch(/^sy-tok-/);
    expect(minted.body.expires_at).toBeGreaterThan(Date.now() / 1000 + 290);
    expect(minted.body.token).not.toContain(key.slice(22, -6));

    const token = minted.body.token as string;
    const openai = new OpenAI({ apiKey: token, baseURL: running.openAIBaseURL, maxRetries: 0, dangerouslyAllowBrowser: true });
    expect((await openai.chat.completions.create(hello)).object).toBe('chat.completion');
    const anthropic = new Anthropic({ apiKey: token, baseURL: running.root, maxRetries: 0 });
    expect((await anthropic.messages.create({ model: 'mock', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] })).type).toBe(
      'message',
    );

    await running.gateway.close();
    const direct = await openDatabase({ url: database, migrate: false });
    const rows = await direct.db.selectFrom('usage_ledger').select(['key_public_id', 'token_id']).execute();
    await direct.close();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.key_public_id === stored.publicId && row.token_id !== null)).toBe(true);
  });

  it('should die with its parent key, expire, and refuse a tampered token', async () => {
    const running = await serve();
    const { key, stored } = await running.gateway.keys!.create({ name: 'parent' });
    const token = (await mint(running, key)).body.token as string;
    const short = (await mint(running, key, { expires_in: 1 })).body.token as string;
    const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: running.openAIBaseURL, maxRetries: 0 });

    expect(await codeOf(client(token).chat.completions.create(hello))).toBe('ok');
    const [body, signature] = token.split('.');
    const forged = `${body!.slice(0, -2)}${body!.endsWith('A') ? 'B' : 'A'}${body!.slice(-1)}.${signature}`;
    expect(await codeOf(client(forged).chat.completions.create(hello))).toBe('invalid_api_key');

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await codeOf(client(short).chat.completions.create(hello))).toBe('token_expired');

    await running.gateway.keys!.revoke(stored.publicId);
    expect(await codeOf(client(token).chat.completions.create(hello))).toBe('api_key_revoked');
  });

  it('should hold a token to its models and its spend cap', async () => {
    const running = await serve();
    const { key } = await running.gateway.keys!.create({ name: 'parent', models: ['mock', 'mock-2'] });
    const onlyMock = (await mint(running, key, { models: ['mock'] })).body.token as string;
    const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: running.openAIBaseURL, maxRetries: 0 });
    expect(await codeOf(client(onlyMock).chat.completions.create(hello))).toBe('ok');
    expect(await codeOf(client(onlyMock).chat.completions.create({ ...hello, model: 'mock-2' }))).toBe('model_not_allowed');

    const capped = (await mint(running, key, { max_spend_usd: 0.000001 })).body.token as string;
    expect(await codeOf(client(capped).chat.completions.create(hello))).toBe('insufficient_quota');
    // Asking for a model the parent may not call is refused at minting.
    const wider = await mint(running, key, { models: ['other'] });
    expect(wider.status).toBe(400);
    expect(wider.body.error.param).toBe('models');
  });

  it('should mint only with a stored key, for at most an hour', async () => {
    const running = await serve();
    const fromOptions = await mint(running, TEST_KEY);
    expect(fromOptions.status).toBe(403);
    expect(fromOptions.body.error.code).toBe('token_needs_stored_key');
    const { key } = await running.gateway.keys!.create({ name: 'parent' });
    expect((await mint(running, key, { expires_in: 3_601 })).status).toBe(400);
    const token = (await mint(running, key)).body.token as string;
    expect((await mint(running, token)).status).toBe(403);
  });

  it('should let an allowed origin call from a browser: preflight and readable answers; others get no CORS headers', async () => {
    const running = await serve();
    const preflight = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-stainless-os');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

    const { key } = await running.gateway.keys!.create({ name: 'parent' });
    const token = (await mint(running, key)).body.token as string;
    const answer = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { origin: APP_ORIGIN, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(hello),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-request-id');
    expect(answer.headers.get('access-control-expose-headers')).toContain('x-switchyard-adapted');

    const elsewhere = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });
});
