import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createCodes } from '../../src/limits/redemption-codes.js';
import { newKey, registered, serveWithConsole, userIdOf } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

/** $1 per million tokens either way. */
const models = [{ id: 'priced', provider: 'mock', price: { input: 1, output: 1 } }];
const scratch = useScratch();
const serve = (options: GatewayOptions) => serveWithConsole(scratch, { models, balances: {}, ...options });

const ask = (origin: string, apiKey: string) =>
  new OpenAI({ apiKey, baseURL: `${origin}/v1`, maxRetries: 0 }).chat.completions
    .create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] })
    .then(
      () => 'ok',
      (error: unknown) => (error instanceof OpenAI.APIError ? `${error.status} ${String(error.code)}` : Promise.reject(error)),
    );

const balanceOn = (page: string) => /id="balance">\$([0-9.]+)</.exec(page)?.[1];

describe.each(['sqlite', 'postgres'] as const)('balances in the console (%s)', (engine) => {
  it('should let an admin top up a member, who spends it, and log the top-up', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    const key = await newKey(member);
    expect(await ask(one.origin, key)).toBe('429 balance_exhausted');
    const page = (await member.get('/console/balance')).text;
    expect(balanceOn(page)).toBe('0.000000');
    expect(page).toContain('id="low-balance"');

    const memberId = await userIdOf(one.api, 'member@example.com');
    const topped = await admin.post(
      `/console/users/${memberId}/top-up`,
      { usd: '5', kind: 'top-up', note: 'invoice 42' },
      '/console/users',
    );
    expect(topped.text).toContain('$5.000000 added to the balance of member@example.com');
    expect(await ask(one.origin, key)).toBe('ok');
    await expect.poll(async () => Number(balanceOn((await member.get('/console/balance')).text)), { timeout: 20_000 }).toBeLessThan(5);
    const csv = await member.get('/console/balance.csv');
    expect(csv.text).toMatch(/^at,kind,amount_usd,note,request_id,by\r\n/);
    expect(csv.text).toContain('top-up,5.000000000,invoice 42');
    // The account's usage since the last write is one row: how many requests, the last one's id.
    expect(csv.text).toMatch(/usage,-0\.0000\d+,1 request,[A-Za-z0-9_-]+,\r\n/);
    expect((await admin.get('/console/audit')).text).toMatch(/balance.top-up[\s\S]*member@example.com[\s\S]*invoice 42/);
    // The models page prices a typical request (1,000 in, 500 out at $1 per million each).
    expect((await member.get('/console/models')).text).toContain('<td class="num">$0.001500</td>');
    // A member cannot top up, nor see another's balance.
    expect((await member.post(`/console/users/${memberId}/top-up`, { usd: '5' }, '/console/balance')).status).toBe(404);
    expect((await member.get(`/console/balance?account=${await userIdOf(one.api, 'admin@example.com')}`)).status).toBe(404);
  });

  it('should let an admin set a credit limit on the Balance page, audited, and show each key’s spend beside the balance', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    const laptop = await newKey(member, 'laptop');
    await newKey(member, 'ci');
    const memberId = await userIdOf(one.api, 'member@example.com');
    expect(await ask(one.origin, laptop)).toBe('429 balance_exhausted');
    // A member cannot set their own.
    expect((await member.post('/console/balance/credit-limit', { account: memberId, usd: '5' }, '/console/balance')).status).toBe(404);

    const set = await admin.post('/console/balance/credit-limit', { account: memberId, usd: '2' }, `/console/balance?account=${memberId}`);
    expect(set.text).toContain('The credit limit of member@example.com is $2.00.');
    expect(set.text).toMatch(/id="credit-limit">\$2\.000000</);
    expect(await ask(one.origin, laptop)).toBe('ok');
    // The balance goes below zero, and the laptop key's spend is shown beside it (this month and in all); the ci key spent nothing.
    await expect.poll(async () => /id="balance">−\$/.test((await member.get('/console/balance')).text), { timeout: 20_000 }).toBe(true);
    const page = (await member.get('/console/balance')).text;
    const spent = /id="balance">−\$([0-9.]+)</.exec(page)?.[1];
    const table = /<table id="key-spend">[\s\S]*?<\/table>/.exec(page)?.[0] ?? '';
    expect(table).toMatch(
      new RegExp(`<td>laptop</td><td><code>[^<]+</code></td><td class="num">\\$${spent}</td><td class="num">\\$${spent}</td>`),
    );
    expect(table).toMatch(/<td>ci<\/td><td><code>[^<]+<\/code><\/td><td class="num">\$0\.000000<\/td><td class="num">\$0\.000000<\/td>/);
    expect(page).not.toContain('Set credit limit');
    const refused = await admin.post(
      '/console/balance/credit-limit',
      { account: memberId, usd: '-1' },
      `/console/balance?account=${memberId}`,
    );
    expect(refused.status).toBe(400);
    expect(
      (await admin.post('/console/balance/credit-limit', { account: memberId, usd: '0' }, `/console/balance?account=${memberId}`)).text,
    ).toContain('No credit limit');
    expect((await admin.get('/console/audit')).text).toMatch(/balance.credit-limit[\s\S]*member@example.com[\s\S]*\$2\.00/);
  });

  it('should redeem a code once of 50 concurrent tries, and refuse expired and reused codes', async () => {
    const one = await serve({ database: scratch.database(engine) });
    const admin = await registered(one.origin, 'admin@example.com');
    const member = await registered(one.origin, 'member@example.com');
    const made = await admin.post('/console/codes', { count: '3', usd: '2.50', days: '30' });
    expect(made.status).toBe(201);
    const codes = /id="new-codes">([^<]+)</.exec(made.text)?.[1]?.split('\n') ?? [];
    expect(codes).toHaveLength(3);
    const db = await one.api.storage!();
    const stored = await db.selectFrom('redemption_codes').select('code_hash').execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(codes[0]);

    const csrf = await member.csrf('/console/balance');
    const tries = await Promise.all(
      Array.from({ length: 50 }, () => member.postWith(csrf, '/console/balance/redeem', { code: codes[0] ?? '' })),
    );
    expect(tries.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(tries.filter((answer) => answer.status === 400 && answer.text.includes('redeemed already'))).toHaveLength(49);
    expect(balanceOn((await member.get('/console/balance')).text)).toBe('2.500000');
    // Typed in lower case with spaces: the same code.
    const second = await member.post(
      '/console/balance/redeem',
      { code: ` ${(codes[1] ?? '').toLowerCase().replace(/-/g, ' ')} ` },
      '/console/balance',
    );
    expect(second.text).toContain('$2.500000 added');
    expect((await member.post('/console/balance/redeem', { code: 'SY-NOPE' }, '/console/balance')).text).toContain('no such code');

    const expired = await createCodes(db, { count: 1, nanoUsd: 1e9, expiresAt: Date.now() - 1, createdBy: 'test' });
    expect((await member.post('/console/balance/redeem', { code: expired.codes[0] ?? '' }, '/console/balance')).text).toContain('expired');
    expect(balanceOn((await member.get('/console/balance')).text)).toBe('5.000000');
    const batches = (await admin.get('/console/codes')).text;
    expect(batches).toMatch(/<td class="num">3<\/td><td class="num">2<\/td>/);
    expect((await admin.get('/console/audit')).text).toContain('codes.created');
  });
});
