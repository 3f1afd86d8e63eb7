import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { ConsoleVisitor } from '../helpers/console-visitor.js';
import { newKey, PASSWORD, registered, serveWithConsole, userIdOf } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const models = [{ id: 'mock', provider: 'mock' }];
const chat = { model: 'mock', messages: [{ role: 'user' as const, content: 'Hello there' }] };

const scratch = useScratch();

const serve = (options: GatewayOptions) => serveWithConsole(scratch, { models, ...options });

const openai = (origin: string, apiKey: string) => new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof OpenAI.APIError>,
  );

describe.each(['sqlite', 'postgres'] as const)('users an admin manages (%s)', (engine) => {
  it('should change roles, disable and enable a user (their keys refused, then served) and log each action', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    const key = await newKey(member);
    await openai(one.origin, key).chat.completions.create(chat);
    const memberId = await userIdOf(one.api, 'member@example.com');
    expect((await admin.get('/console/users')).text).toMatch(/member@example.com<\/td><td>member</);

    expect((await admin.post(`/console/users/${memberId}/admin`, {}, '/console/users')).text).toMatch(/member@example.com<\/td><td>admin</);
    expect((await admin.post(`/console/users/${memberId}/member`, {}, '/console/users')).status).toBe(200);

    expect((await admin.post(`/console/users/${memberId}/disable`, {}, '/console/users')).text).toContain('member@example.com is disabled');
    expect((await failureOf(openai(one.origin, key).chat.completions.create(chat)))?.status).toBe(401);
    // Signed out, and cannot sign in again.
    expect((await member.get('/console/keys')).status).toBe(303);
    const signIn = await new ConsoleVisitor(one.origin).post('/console/sign-in', { email: 'member@example.com', password: PASSWORD });
    expect(signIn.status).toBe(403);
    expect(signIn.text).toContain('ACCOUNT_DISABLED');

    await admin.post(`/console/users/${memberId}/enable`, {}, '/console/users');
    await openai(one.origin, key).chat.completions.create(chat);

    // An admin cannot act on themselves.
    const adminId = await userIdOf(one.api, 'admin@example.com');
    expect((await admin.post(`/console/users/${adminId}/disable`, {}, '/console/users')).status).toBe(400);

    const audit = (await admin.get('/console/audit')).text;
    for (const action of ['user.role', 'user.disabled', 'user.enabled']) expect(audit).toContain(action);
    expect(audit).toContain('admin@example.com');
    // A member sees neither page.
    expect((await member.get('/console/audit')).status).not.toBe(200);
  });

  it('should delete a user: their keys revoked, their usage rows kept', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'leaver@example.com');
    const key = await newKey(member);
    await openai(one.origin, key).chat.completions.create(chat);
    const memberId = await userIdOf(one.api, 'leaver@example.com');
    const publicId = key.split('_')[0] ?? '';
    const db = await one.api.storage!();
    const usageRows = async () => (await db.selectFrom('usage_ledger').select('request_id').execute()).length;
    await expect.poll(usageRows, { timeout: 20_000 }).toBe(1);

    expect((await admin.post(`/console/users/${memberId}/delete`, {}, '/console/users')).text).toContain('leaver@example.com is deleted');
    expect((await failureOf(openai(one.origin, key).chat.completions.create(chat)))?.code).toBe('api_key_revoked');
    expect(await db.selectFrom('console_users').select('id').where('id', '=', memberId).executeTakeFirst()).toBeUndefined();
    expect(await usageRows()).toBe(1);
    expect((await admin.get('/console/audit')).text).toMatch(/user.deleted[\s\S]*leaver@example.com[\s\S]*1 key revoked/);
    expect(publicId).not.toBe('');
  });

  it('should reset a password through a one-time link an admin made, storing only its hash', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'forgetful@example.com');
    const memberId = await userIdOf(one.api, 'forgetful@example.com');
    const made = await admin.post(`/console/users/${memberId}/reset-link`, {}, '/console/users');
    const link = /(http:\/\/[^<]+\/console\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(made.text);
    expect(link).not.toBeNull();
    const token = link?.[2] ?? '';
    const db = await one.api.storage!();
    const stored = await db.selectFrom('console_password_resets').select('token_hash').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(token);

    const path = `/console/reset-password?token=${token}`;
    const visitor = new ConsoleVisitor(one.origin);
    expect((await visitor.get(path)).text).toContain('forgetful@example.com');
    expect((await visitor.post('/console/reset-password', { token, password: 'a brand new password' }, path)).text).toContain(
      'Your password is changed',
    );
    // The old sessions ended; the old password no longer works, the new one does.
    expect((await member.get('/console/keys')).status).toBe(303);
    expect(
      (await new ConsoleVisitor(one.origin).post('/console/sign-in', { email: 'forgetful@example.com', password: PASSWORD })).status,
    ).toBe(401);
    expect(
      (await new ConsoleVisitor(one.origin).post('/console/sign-in', { email: 'forgetful@example.com', password: 'a brand new password' }))
        .status,
    ).toBe(303);
    // Used once.
    expect((await new ConsoleVisitor(one.origin).get(path)).status).toBe(410);
    expect((await admin.get('/console/audit')).text).toContain('user.reset-link');
  });
});

describe('disabling a user across instances', () => {
  it('should refuse their keys on another instance at once, through Redis', async () => {
    const database = scratch.database('postgres');
    // A long key cache TTL: only the Redis message can make the second instance refuse the key in time.
    const shared = { database, redis: REDIS_URL, redisPrefix: `test:${randomBytes(6).toString('hex')}:`, keyCacheTtlMs: 600_000 };
    const first = await serve(shared);
    const second = await serve(shared);
    const admin = await registered(first.origin, 'admin@example.com');
    const member = await registered(first.origin, 'member@example.com');
    const key = await newKey(member);
    await openai(second.origin, key).chat.completions.create(chat);
    await admin.post(`/console/users/${await userIdOf(first.api, 'member@example.com')}/disable`, {}, '/console/users');
    let error: InstanceType<typeof OpenAI.APIError> | undefined;
    for (let tries = 0; tries < 50 && error === undefined; tries += 1) {
      error = await failureOf(openai(second.origin, key).chat.completions.create(chat));
      if (error === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(error?.status).toBe(401);
    expect(error?.message).toContain('disabled');
  });
});
