import Anthropic from '@anthropic-ai/sdk';
import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway/gateway.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { Logger } from '../../src/logger.js';
import { spentSince } from '../../src/usage/usage-queries.js';
import { newKey, PASSWORD, registered, serveWithConsole } from '../helpers/console-gateway.js';
import { ConsoleVisitor } from '../helpers/console-visitor.js';
import { useScratch } from '../helpers/scratch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOUR = 3_600_000;
const scratch = useScratch();

/** A logger that keeps its warn lines. */
function warnLines(): { logger: Logger; lines: Array<{ fields: Record<string, unknown>; message: string }> } {
  const lines: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const ignore = () => undefined;
  return {
    lines,
    logger: { debug: ignore, info: ignore, error: ignore, warn: (fields, message = '') => lines.push({ fields: { ...fields }, message }) },
  };
}

async function ask(origin: string, apiKey: string): Promise<string> {
  const client = new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
  try {
    await client.chat.completions.create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    return 'ok';
  } catch (error) {
    if (error instanceof OpenAI.APIError) return `${error.status} ${String(error.type)} ${String(error.code)}`;
    throw error;
  }
}

async function askAnthropic(origin: string, apiKey: string): Promise<string> {
  const client = new Anthropic({ apiKey, baseURL: origin, maxRetries: 0 });
  try {
    await client.messages.create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    return 'ok';
  } catch (error) {
    if (error instanceof Anthropic.APIError) {
      const body = error.error as { error?: { type?: string; message?: string } } | undefined;
      return `${error.status} ${String(body?.error?.type)}`;
    }
    throw error;
  }
}

/** A metric's value in the gateway's registry (0 when it has no series yet). */
async function metric(api: Gateway, name: string): Promise<number> {
  const found = api.metrics?.getSingleMetric(name);
  const values = found === undefined ? [] : (await found.get()).values;
  return values.reduce((sum, value) => sum + value.value, 0);
}

/** The tokens one such request counts (input and output), from a gateway without the watch. */
async function tokensOfOne(): Promise<number> {
  const probe = await serveWithConsole(scratch, {
    database: scratch.database('sqlite'),
    models: [{ id: 'priced', provider: 'mock', price: { input: 1, output: 1 } }],
    unusualSpend: false,
  });
  const { key, stored } = await probe.api.keys!.create({ name: 'probe' });
  expect(await ask(probe.origin, key)).toBe('ok');
  const db = await probe.api.storage!();
  await expect.poll(() => spentSince(db, stored.publicId, 0), { timeout: 20_000 }).toBeGreaterThan(0);
  // $1 per million tokens: 1,000 nano-USD a token.
  return (await spentSince(db, stored.publicId, 0)) / 1_000;
}

/** A day of history: each key spent `perRequest` an hour, in one request. */
function dayOfHistory(keyIds: readonly string[], perRequest: number) {
  const now = Date.now();
  let n = 0;
  const rows = [];
  for (let hour = 1; hour <= 24; hour += 1)
    for (const keyId of keyIds)
      rows.push({
        request_id: `req_history_${(n += 1)}`,
        attempt: 1,
        at: now - (hour + 0.5) * HOUR,
        key_public_id: keyId,
        protocol: 'chat',
        model: 'priced',
        stream: 0,
        status: 200,
        billing: 'complete',
        input_tokens: 5,
        output_tokens: 5,
        cost_nano_usd: perRequest,
      });
  return rows;
}

describe('unusual spend', () => {
  it('should only log and count a key at 10× its trailing hour by default (SQLite), not pause it', async () => {
    const perToken = 0.15 / (await tokensOfOne());
    const { logger, lines } = warnLines();
    const one = await serveWithConsole(scratch, {
      database: scratch.database('sqlite'),
      logger,
      models: [{ id: 'priced', provider: 'mock', price: { input: perToken * 1e6, output: perToken * 1e6 } }],
      metrics: true,
      unusualSpend: { checkIntervalMs: 50 },
    });
    const member = await registered(one.origin, 'member@example.com');
    const jumperKey = await newKey(member, 'jumper');
    const steadyKey = await newKey(member, 'steady');
    const db = await one.api.storage!();
    const ids = Object.fromEntries(
      (await db.selectFrom('api_keys').select(['public_id', 'name']).execute()).map((key) => [key.name, key.public_id]),
    );
    await db
      .insertInto('usage_ledger')
      .values(dayOfHistory([ids.jumper!, ids.steady!], 0.15e9))
      .execute();

    expect(await ask(one.origin, steadyKey)).toBe('ok');
    for (let request = 0; request < 10; request += 1) expect(await ask(one.origin, jumperKey)).toBe('ok');
    await expect.poll(() => metric(one.api, 'switchyard_unusual_spend_flags_total'), { timeout: 20_000 }).toBe(1);
    const checks = await metric(one.api, 'switchyard_unusual_spend_checks_total');
    expect(await ask(one.origin, jumperKey)).toBe('ok');
    await expect.poll(() => metric(one.api, 'switchyard_unusual_spend_checks_total'), { timeout: 20_000 }).toBeGreaterThan(checks + 2);
    const flagged = lines.filter((line) => line.message.includes('unusual spend on key'));
    expect(flagged.map((line) => line.fields)).toMatchObject([{ keyId: ids.jumper, keyName: 'jumper', paused: false }]);
    expect(await metric(one.api, 'switchyard_unusual_spend_keys')).toBe(1);
    expect(await metric(one.api, 'switchyard_key_pauses_total')).toBe(0);
    expect(await metric(one.api, 'switchyard_paused_keys')).toBe(0);
  });

  it('should log a key at 10× its trailing hour once, count it, pause it on both instances until an admin lifts it, and leave a steady key alone', async () => {
    // A request costs $0.15: one is under the $1 floor (a key without history is not flagged for it), ten are over.
    const perToken = 0.15 / (await tokensOfOne());
    const perRequest = 0.15e9;
    const database = scratch.database('postgres');
    const first = warnLines();
    const second = warnLines();
    const shared: GatewayOptions = {
      database,
      redis: REDIS_URL,
      redisPrefix: `test:${randomBytes(6).toString('hex')}:`,
      models: [{ id: 'priced', provider: 'mock', price: { input: perToken * 1e6, output: perToken * 1e6 } }],
      metrics: true,
      unusualSpend: { pause: true, checkIntervalMs: 50 },
    };
    const a = await serveWithConsole(scratch, { ...shared, logger: first.logger });
    const b = await serveWithConsole(scratch, { ...shared, logger: second.logger });
    const admin = await registered(a.origin, 'admin@example.com');
    const member = await registered(a.origin, 'member@example.com');
    const jumperKey = await newKey(member, 'jumper');
    const steadyKey = await newKey(member, 'steady');
    const db = await a.api.storage!();
    const ids = Object.fromEntries(
      (await db.selectFrom('api_keys').select(['public_id', 'name']).execute()).map((key) => [key.name, key.public_id]),
    );

    await db
      .insertInto('usage_ledger')
      .values(dayOfHistory([ids.jumper!, ids.steady!], perRequest))
      .execute();

    // The steady key as always; the jumper at up to 10× (it is paused once past $1).
    expect(await ask(b.origin, steadyKey)).toBe('ok');
    const answers: string[] = [];
    for (let request = 0; request < 10; request += 1) answers.push(await ask(request % 2 === 0 ? a.origin : b.origin, jumperKey));
    expect(answers.filter((answer) => answer === 'ok').length).toBeGreaterThanOrEqual(7);

    // Paused on both instances, in both protocols' shapes: 403, never retried.
    await expect.poll(() => ask(a.origin, jumperKey), { timeout: 20_000 }).toBe('403 permission_error key_paused');
    await expect.poll(() => ask(b.origin, jumperKey), { timeout: 20_000 }).toBe('403 permission_error key_paused');
    expect(await askAnthropic(a.origin, jumperKey)).toBe('403 permission_error');
    expect(await askAnthropic(b.origin, jumperKey)).toBe('403 permission_error');

    // Both instances checked twice more since: still one line, from one instance, naming the key and its account, not the key itself.
    const checks = [
      await metric(a.api, 'switchyard_unusual_spend_checks_total'),
      await metric(b.api, 'switchyard_unusual_spend_checks_total'),
    ];
    await expect.poll(() => metric(a.api, 'switchyard_unusual_spend_checks_total'), { timeout: 20_000 }).toBeGreaterThan(checks[0]! + 2);
    await expect.poll(() => metric(b.api, 'switchyard_unusual_spend_checks_total'), { timeout: 20_000 }).toBeGreaterThan(checks[1]! + 2);
    const flagged = [...first.lines, ...second.lines].filter((line) => line.message.includes('unusual spend on key'));
    expect(flagged).toHaveLength(1);
    expect(flagged[0]!.fields).toMatchObject({ keyId: ids.jumper, keyName: 'jumper', account: 'member@example.com', paused: true });
    expect(flagged[0]!.fields.lastHourUsd).toBeGreaterThanOrEqual(1);
    expect(flagged[0]!.fields.hourlyAverageUsd).toBeCloseTo(0.15, 6);
    expect(JSON.stringify(flagged)).not.toContain('sk-sy-');
    expect(JSON.stringify(flagged)).not.toContain(ids.steady);
    // The metrics moved: one flag and one pause in all, and both instances see one paused key.
    expect(
      (await metric(a.api, 'switchyard_unusual_spend_flags_total')) + (await metric(b.api, 'switchyard_unusual_spend_flags_total')),
    ).toBe(1);
    expect((await metric(a.api, 'switchyard_key_pauses_total')) + (await metric(b.api, 'switchyard_key_pauses_total'))).toBe(1);
    expect(await metric(a.api, 'switchyard_paused_keys')).toBe(1);
    expect(await metric(b.api, 'switchyard_paused_keys')).toBe(1);
    expect(await ask(a.origin, steadyKey)).toBe('ok');

    // The key's page says why, with the requests that caused it; an admin lifts the pause on the other instance.
    const page = (await admin.get(`/console/keys/${ids.jumper}`)).text;
    expect(page).toContain('id="key-paused"');
    expect(page).toContain('id="unusual-spend"');
    expect((await member.get(`/console/keys/${ids.jumper}`)).text).not.toContain('Lift the pause');
    const adminOnB = new ConsoleVisitor(b.origin);
    expect((await adminOnB.post('/console/sign-in', { email: 'admin@example.com', password: PASSWORD })).status).toBe(303);
    expect((await adminOnB.post(`/console/keys/${ids.jumper}/unpause`, {}, `/console/keys/${ids.jumper}`)).status).toBe(303);
    // The instance that lifted it at once; the other when the revocation channel's message reaches it.
    expect(await askAnthropic(b.origin, jumperKey)).toBe('ok');
    await expect.poll(() => ask(a.origin, jumperKey), { timeout: 5_000 }).toBe('ok');
    const audit = (await admin.get('/console/audit')).text;
    expect(audit).toContain('key.paused');
    expect(audit).toContain('key.unpaused');
  });
});
