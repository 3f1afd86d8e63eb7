import Anthropic from '@anthropic-ai/sdk';
import { createHash, randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { listKeys, revokeKey } from '../../src/access/stored-keys.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import type { Logger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const models = [
  { id: 'mock', provider: 'mock' },
  { id: 'mock-2', provider: 'mock' },
];
const chat = { model: 'mock', messages: [{ role: 'user' as const, content: 'Hello there' }] };

const scratch = useScratch();

async function serve(options: GatewayOptions): Promise<RunningGateway> {
  const running = await startGateway({ models, ledger: { outbox: scratch.file('outbox'), intervalMs: 5 }, ...options });
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

const openai = (running: RunningGateway, apiKey: string) => new OpenAI({ apiKey, baseURL: running.openAIBaseURL, maxRetries: 0 });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

describe.each(['sqlite', 'postgres'] as const)('stored keys on %s', (engine) => {
  it('should serve a stored key through the official SDKs and keep only its hash', async () => {
    const database = scratch.database(engine);
    const running = await serve({ database });
    const { key, stored } = await running.gateway.keys!.create({ name: 'ci' });
    expect(key).toMatch(/^sk-sy-/);
    const answer = await openai(running, key).chat.completions.create(chat);
    expect(answer.choices[0]?.message.content).toBe(DEFAULT_MOCK_REPLY);
    const anthropic = new Anthropic({ apiKey: key, baseURL: running.root, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'mock', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    expect(message.type).toBe('message');

    const listed = await running.gateway.keys!.list();
    expect(listed.map((entry) => entry.publicId)).toEqual([stored.publicId]);
    // The table holds the public id and a hash: neither the key nor its secret.
    const secret = key.slice('sk-sy-'.length + 16, -6);
    const direct = await openDatabase({ ...database, migrate: false });
    const rows = await direct.db.selectFrom('api_keys').selectAll().execute();
    await direct.close();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.public_id).toBe(stored.publicId);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows[0]?.secret_hash).toBe(createHash('sha256').update(secret).digest('base64url'));
  });

  it('should refuse unknown, mistyped, revoked and expired keys with their own codes', async () => {
    const running = await serve({ database: scratch.database(engine) });
    const keys = running.gateway.keys!;
    const { key: revoked, stored } = await keys.create({ name: 'revoked' });
    const { key: expired } = await keys.create({ name: 'expired', expiresAt: Date.now() - 1 });
    const { key: good } = await keys.create({ name: 'good' });
    expect(await keys.revoke(stored.publicId)).toBe(true);
    const unknown = `${good.slice(0, 10)}${good[10] === 'A' ? 'B' : 'A'}${good.slice(11)}`;

    const cases: Array<[string, string]> = [
      [revoked, 'api_key_revoked'],
      [expired, 'api_key_expired'],
      [unknown, 'api_key_mistyped'],
      [good.slice(0, 40), 'api_key_mistyped'],
      ['sk-something-else', 'invalid_api_key'],
    ];
    for (const [presented, code] of cases) {
      const error = await failureOf(openai(running, presented).chat.completions.create(chat));
      expect(error, code).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error?.code).toBe(code);
      expect(error?.message).not.toContain(presented);
    }
  });

  it('should refuse a key revoked elsewhere once its cache entry is older than keyCacheTtlMs', async () => {
    const database = scratch.database(engine);
    // Long enough that revoking through a second connection fits inside it on a loaded machine.
    const keyCacheTtlMs = 2_000;
    const running = await serve({ database, keyCacheTtlMs });
    const { key, stored } = await running.gateway.keys!.create({ name: 'soon revoked' });
    await openai(running, key).chat.completions.create(chat);
    const cachedBy = Date.now();
    // Revoked behind this instance's back: in the database, as another instance without Redis would.
    const direct = await openDatabase({ ...database, migrate: false });
    await revokeKey(direct.db, stored.publicId);
    await direct.close();
    // Within the TTL the cached answer still serves it; the first request past it waits for the
    // lookup (the database answers well within the wait) and is refused.
    expect((await openai(running, key).chat.completions.create(chat)).object).toBe('chat.completion');
    const pastTtl = cachedBy + keyCacheTtlMs + 20 - Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pastTtl)));
    expect((await failureOf(openai(running, key).chat.completions.create(chat)))?.code).toBe('api_key_revoked');
  });

  it('should record when a key was last used, written in a batch and on close', async () => {
    const database = scratch.database(engine);
    const running = await serve({ database });
    const { key, stored } = await running.gateway.keys!.create({ name: 'used' });
    expect(stored.lastUsedAt).toBeUndefined();
    const before = Date.now();
    await openai(running, key).chat.completions.create(chat);
    await running.gateway.close();
    const direct = await openDatabase({ ...database, migrate: false });
    const [listed] = await listKeys(direct.db);
    await direct.close();
    expect(listed?.lastUsedAt).toBeGreaterThanOrEqual(before);
    expect(listed?.lastUsedAt).toBeLessThanOrEqual(Date.now());
  });

  it('should keep keys from the options working beside stored keys', async () => {
    const running = await serve({ database: scratch.database(engine), apiKeys: [TEST_KEY] });
    const answer = await openai(running, TEST_KEY).chat.completions.create(chat);
    expect(answer.object).toBe('chat.completion');
  });

  it("should refuse a model outside the key's allowlist with a 403", async () => {
    const running = await serve({ database: scratch.database(engine) });
    const { key } = await running.gateway.keys!.create({ name: 'only mock', models: ['mock'] });
    await openai(running, key).chat.completions.create(chat);
    const error = await failureOf(openai(running, key).chat.completions.create({ ...chat, model: 'mock-2' }));
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(error?.code).toBe('model_not_allowed');
  });
});

describe('stored keys across instances', () => {
  it('should refuse a key on every instance at once when one revokes it, through Redis', async () => {
    const database = scratch.database('postgres');
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    // A long TTL: only the Redis message can make the second instance refuse the key in time.
    const shared = { database, redis: REDIS_URL, redisPrefix: prefix, keyCacheTtlMs: 600_000 };
    const first = await serve(shared);
    const second = await serve(shared);
    const { key, stored } = await first.gateway.keys!.create({ name: 'shared' });
    await openai(second, key).chat.completions.create(chat);
    await first.gateway.keys!.revoke(stored.publicId);
    let error: InstanceType<typeof OpenAI.APIError> | undefined;
    for (let tries = 0; tries < 50 && error === undefined; tries += 1) {
      error = await failureOf(openai(second, key).chat.completions.create(chat));
      if (error === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(error?.code).toBe('api_key_revoked');
  });
});

describe('secrets in logs', () => {
  it('should never write a key, good or bad, to the log', async () => {
    const lines: string[] = [];
    const capture = (level: string) => (object: object, message?: string) =>
      lines.push(`${level} ${JSON.stringify(object)} ${message ?? ''}`);
    const logger: Logger = { debug: capture('debug'), info: capture('info'), warn: capture('warn'), error: capture('error') };
    const running = await serve({ database: scratch.database('sqlite'), logger });
    const { key, stored } = await running.gateway.keys!.create({ name: 'logged?' });
    await openai(running, key).chat.completions.create(chat);
    await running.gateway.keys!.revoke(stored.publicId);
    await failureOf(openai(running, key).chat.completions.create(chat));
    await failureOf(openai(running, `${key}x`).chat.completions.create(chat));
    await running.gateway.close();
    const log = lines.join('\n');
    // The audit lines name the key by its public id; no line holds its secret.
    expect(lines.filter((line) => line.includes(stored.publicId)).length).toBe(2);
    expect(log).not.toContain(key.slice(6 + 16, -6));
  });
});
