import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { appendBalanceRows, balanceOf } from '../../src/limits/balance-ledger.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { spentSince } from '../../src/usage/usage-queries.js';
import { newKey, registered, serveWithConsole, userIdOf, type ConsoleGatewayInstance } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** $1 per million tokens either way: 1,000 nano-USD per token. */
const price = { input: 1, output: 1 };

const scratch = useScratch();

const serve = (options: GatewayOptions) =>
  serveWithConsole(scratch, {
    // Streams of a few paced deltas, so that many requests are in flight at once.
    providers: { paced: createMockProvider({ chunkDelayMs: 5 }) },
    models: [
      { id: 'priced', provider: 'paced', price },
      { id: 'unpriced', provider: 'paced' },
    ],
    balances: {},
    ...options,
  });

/** One streamed request through the openai SDK: 'ok', or the error's status, type and code. */
async function ask(origin: string, apiKey: string): Promise<string> {
  const client = new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
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
    if (error instanceof OpenAI.APIError) return `${error.status} ${String(error.type)} ${String(error.code)}`;
    throw error;
  }
}

async function credit(instance: ConsoleGatewayInstance, accountId: string, nanoUsd: number): Promise<void> {
  await appendBalanceRows(await instance.api.storage!(), [
    { accountId, at: Date.now(), kind: 'top-up', nanoUsd, actorId: 'test', note: undefined, requestId: undefined },
  ]);
  await instance.api.balances!.credited(accountId);
}

/** The real cost of one such request, from a key no account owns (not charged). */
async function costOfOne(instance: ConsoleGatewayInstance): Promise<number> {
  const { key, stored } = await instance.api.keys!.create({ name: 'probe' });
  expect(await ask(instance.origin, key)).toBe('ok');
  const db = await instance.api.storage!();
  await expect.poll(() => spentSince(db, stored.publicId, 0), { timeout: 20_000 }).toBeGreaterThan(0);
  return spentSince(db, stored.publicId, 0);
}

describe('account balances', () => {
  it('should never take an account below zero under 200 concurrent requests on two instances (PostgreSQL + Redis), refusing in each protocol’s shape', async () => {
    const database = scratch.database('postgres');
    const shared = { database, redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:` };
    const first = await serve(shared);
    const second = await serve(shared);
    await registered(first.origin, 'admin@example.com');
    const member = await registered(first.origin, 'member@example.com');
    const key = await newKey(member);
    const accountId = await userIdOf(first.api, 'member@example.com');
    const perRequest = await costOfOne(first);

    // No balance yet: refused at once, naming the account, in both protocols' shapes.
    expect(await ask(second.origin, key)).toBe('429 insufficient_quota balance_exhausted');
    const anthropic = new Anthropic({ apiKey: key, baseURL: second.origin, maxRetries: 0 });
    const refused = await anthropic.messages.create({ model: 'priced', max_tokens: 40, messages: [{ role: 'user', content: 'Hi' }] }).then(
      () => undefined,
      (error: unknown) => error as InstanceType<typeof Anthropic.APIError>,
    );
    expect(refused?.status).toBe(402);
    expect((refused?.error as { error?: { type?: string; message?: string } } | undefined)?.error?.type).toBe('billing_error');
    expect((refused?.error as { error?: { message?: string } } | undefined)?.error?.message).toContain('member@example.com');

    await credit(first, accountId, perRequest * 20);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => ask(n % 2 === 0 ? first.origin : second.origin, key)));
    const served = answers.filter((answer) => answer === 'ok').length;
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(20);
    expect(answers.some((answer) => answer === '429 insufficient_quota balance_exhausted')).toBe(true);
    for (const answer of answers)
      expect(answer).toMatch(/^(ok|429 insufficient_quota balance_exhausted|429 rate_limit_error budget_busy)$/);

    // Once the instances wrote what waits: the balance ledger is never below zero, and its usage rows are what the usage ledger charged.
    await first.api.balances!.flush();
    await second.api.balances!.flush();
    const direct = await openDatabase({ ...database, migrate: false });
    try {
      const { key_public_id: keyId } = await direct.db.selectFrom('console_key_owners').select('key_public_id').executeTakeFirstOrThrow();
      await expect.poll(() => spentSince(direct.db, keyId, 0), { timeout: 20_000 }).toBe(perRequest * served);
      const balance = await balanceOf(direct.db, accountId);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance).toBe(perRequest * 20 - perRequest * served);
    } finally {
      await direct.close();
    }
  });

  it('should not charge an admin’s keys or keys without an owner unless configured', async () => {
    const one = await serve({ database: scratch.database('sqlite') });
    const admin = await registered(one.origin, 'admin@example.com');
    expect(await ask(one.origin, await newKey(admin))).toBe('ok');
    const { key } = await one.api.keys!.create({ name: 'service' });
    expect(await ask(one.origin, key)).toBe('ok');
    // A member's key cannot use a model without a price: its cost could not be charged.
    const member = await registered(one.origin, 'member@example.com');
    const refused = await new OpenAI({ apiKey: await newKey(member), baseURL: `${one.origin}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'unpriced', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
    expect(refused).toMatchObject({ status: 403, code: 'model_unpriced' });
    expect((refused as Error).message).toContain('charged to the balance of its account');
  });

  it.each(['sqlite', 'postgres'] as const)(
    'should let an account with a credit limit (set through the admin API) go down to −limit and no further under 100 concurrent requests (%s)',
    async (engine) => {
      const adminKey = randomBytes(24).toString('hex');
      const database = scratch.database(engine);
      // PostgreSQL: two instances sharing it and Redis; SQLite: one instance, counters in memory.
      const shared =
        engine === 'postgres'
          ? { database, redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:`, adminKey }
          : { database, adminKey };
      const first = await serve(shared);
      const second = engine === 'postgres' ? await serve(shared) : first;
      await registered(first.origin, 'admin@example.com');
      const member = await registered(first.origin, 'member@example.com');
      const key = await newKey(member);
      const accountId = await userIdOf(first.api, 'member@example.com');
      const perRequest = await costOfOne(first);
      expect(await ask(second.origin, key)).toBe('429 insufficient_quota balance_exhausted');

      const limit = perRequest * 10;
      const set = await fetch(`${first.origin}/admin/accounts/member@example.com/credit-limit`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ usd: limit / 1e9 }),
      });
      expect(set.status).toBe(200);
      expect(await set.json()).toMatchObject({ id: accountId, balanceNanoUsd: 0, creditLimitNanoUsd: limit });

      const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => ask(n % 2 === 0 ? first.origin : second.origin, key)));
      // A refusal says the account cannot pay, or (retryable) that what it has left is held by requests still under way:
      // on a fast machine all 90 can come while the first ones run.
      for (const answer of answers)
        expect(answer).toMatch(/^(ok|429 insufficient_quota balance_exhausted|429 rate_limit_error budget_busy)$/);
      let served = answers.filter((answer) => answer === 'ok').length;
      expect(served).toBeGreaterThan(0);
      expect(served).toBeLessThan(100);
      // Once they have finished, what is left (if a reservation held more than a request cost) is served, then the account is refused for good.
      // A reservation is settled just after its answer is sent: until then (a loaded machine), the refusal is the retryable one.
      let next = await ask(second.origin, key);
      const settledBy = Date.now() + 10_000;
      while ((next === 'ok' && served < 10) || (next === '429 rate_limit_error budget_busy' && Date.now() < settledBy)) {
        if (next === 'ok') served += 1;
        else await new Promise((resolve) => setTimeout(resolve, 50));
        next = await ask(second.origin, key);
      }
      expect(next).toBe('429 insufficient_quota balance_exhausted');
      expect(served).toBeLessThanOrEqual(10);

      await first.api.balances!.flush();
      await second.api.balances!.flush();
      const db = await first.api.storage!();
      const { key_public_id: keyId } = await db.selectFrom('console_key_owners').select('key_public_id').executeTakeFirstOrThrow();
      await expect.poll(() => spentSince(db, keyId, 0), { timeout: 20_000 }).toBe(perRequest * served);
      const balance = await balanceOf(db, accountId);
      expect(balance).toBe(-perRequest * served);
      expect(balance).toBeGreaterThanOrEqual(-limit);
      const read = await fetch(`${second.origin}/admin/accounts/${accountId}/balance`, {
        headers: { authorization: `Bearer ${adminKey}` },
      });
      expect(await read.json()).toMatchObject({ balanceNanoUsd: balance, creditLimitNanoUsd: limit });
      const audit = await db.selectFrom('console_audit_log').selectAll().where('action', '=', 'balance.credit-limit').execute();
      expect(audit).toMatchObject([{ actor_email: 'admin API', target: 'member@example.com' }]);
    },
  );
});
