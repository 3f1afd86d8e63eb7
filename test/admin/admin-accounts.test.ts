import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { newKey, registered, serveWithConsole, userIdOf } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const ADMIN_KEY = 'admin-0123456789abcdef';
const scratch = useScratch();

async function call(origin: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('balances through the admin API', () => {
  it('should top up an account named by e-mail or id, which its keys then spend, and log it', async () => {
    const one = await serveWithConsole(scratch, {
      database: scratch.database('sqlite'),
      adminKey: ADMIN_KEY,
      balances: {},
      models: [{ id: 'priced', provider: 'mock', price: { input: 1, output: 1 } }],
    });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    const key = await newKey(member);
    const ask = () =>
      new OpenAI({ apiKey: key, baseURL: `${one.origin}/v1`, maxRetries: 0 }).chat.completions.create({
        model: 'priced',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'Hi' }],
      });
    await expect(ask()).rejects.toMatchObject({ status: 429, code: 'balance_exhausted' });

    const topped = await call(one.origin, 'POST', '/admin/accounts/Member@Example.com/top-up', { usd: 3, note: 'PO 9' });
    expect(topped).toMatchObject({ status: 201, body: { email: 'member@example.com', balanceNanoUsd: 3e9 } });
    await ask();
    const id = await userIdOf(one.api, 'member@example.com');
    const read = await call(one.origin, 'GET', `/admin/accounts/${id}/balance`);
    expect(read.status).toBe(200);
    expect(read.body.balanceNanoUsd).toBeLessThanOrEqual(3e9);

    expect((await call(one.origin, 'POST', `/admin/accounts/${id}/top-up`, { usd: -1 })).status).toBe(400);
    expect(
      (await call(one.origin, 'POST', `/admin/accounts/${id}/top-up`, { usd: -1, kind: 'adjustment' })).body.balanceNanoUsd,
    ).toBeLessThan(2e9 + 1);
    expect((await call(one.origin, 'POST', '/admin/accounts/nobody@example.com/top-up', { usd: 1 })).body.error.code).toBe(
      'account_not_found',
    );
    expect((await admin.get('/console/audit')).text).toMatch(/admin API[\s\S]*balance.top-up[\s\S]*member@example.com[\s\S]*PO 9/);
  });

  it('should lift a paused key’s pause (in the audit log), which then works, and refuse a bad credit limit', async () => {
    const one = await serveWithConsole(scratch, {
      database: scratch.database('sqlite'),
      adminKey: ADMIN_KEY,
      balances: {},
      models: [{ id: 'priced', provider: 'mock', price: { input: 1, output: 1 } }],
    });
    const { key, stored } = await one.api.keys!.create({ name: 'service' });
    const db = await one.api.storage!();
    await db.updateTable('api_keys').set({ paused_at: Date.now(), pause_reason: '$5.00 in the last hour' }).execute();
    const client = new OpenAI({ apiKey: key, baseURL: `${one.origin}/v1`, maxRetries: 0 });
    const ask = () => client.chat.completions.create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    await expect(ask()).rejects.toMatchObject({ status: 403, code: 'key_paused' });

    expect(await call(one.origin, 'POST', `/admin/keys/${stored.publicId}/unpause`)).toMatchObject({
      status: 200,
      body: { publicId: stored.publicId, paused: false, lifted: true },
    });
    await ask();
    expect((await call(one.origin, 'POST', '/admin/keys/nope/unpause')).body.error.code).toBe('key_not_found');
    const audit = await db.selectFrom('console_audit_log').select(['actor_email', 'action', 'target']).execute();
    expect(audit).toEqual([{ actor_email: 'admin API', action: 'key.unpaused', target: stored.publicId }]);

    await registered(one.origin, 'admin@example.com');
    expect(await call(one.origin, 'POST', '/admin/accounts/admin@example.com/credit-limit', { usd: -1 })).toMatchObject({
      status: 400,
      body: { error: { code: 'admin_request_invalid', param: 'usd' } },
    });
    expect((await call(one.origin, 'POST', '/admin/accounts/nobody@example.com/credit-limit', { usd: 1 })).body.error.code).toBe(
      'account_not_found',
    );
  });
});
