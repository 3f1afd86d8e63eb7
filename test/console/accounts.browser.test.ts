import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { serveWithConsole } from '../helpers/console-gateway.js';
import { useScratch } from '../helpers/scratch.js';

// $1,000 per million tokens either way: a few small requests spend a balance of $0.20.
const models = [{ id: 'priced', provider: 'mock', price: { input: 1000, output: 1000 } }];
const scratch = useScratch();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function registerIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/register`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${base}/keys`);
}

const balanceText = (page: Page) => page.locator('#balance').textContent();

describe('accounts that hold money, in a real browser', () => {
  it('should let an admin top up, a member spend and redeem a code, an admin reset a password, and log each step', async () => {
    const one = await serveWithConsole(scratch, { database: scratch.database('postgres'), balances: {}, models });
    const base = `${one.origin}/console`;
    const admin = await (await browser.newContext()).newPage();
    const member = await (await browser.newContext()).newPage();
    await registerIn(admin, base, 'admin@example.com', 'the admin password');
    await registerIn(member, base, 'member@example.com', 'the member password');

    await member.getByLabel('Name').fill('laptop');
    await member.getByRole('button', { name: 'Create key' }).click();
    const key = (await member.locator('#new-key').textContent()) ?? '';
    expect(key).toMatch(/^sk-sy-/);
    const client = new OpenAI({ apiKey: key, baseURL: `${one.origin}/v1`, maxRetries: 0 });
    const ask = () =>
      client.chat.completions.create({ model: 'priced', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }).then(
        () => 'ok',
        (error: unknown) => (error as { code?: string }).code ?? 'failed',
      );

    // The admin tops the member up on the users page.
    await admin.goto(`${base}/users`);
    await admin.getByLabel('Amount in USD for member@example.com').fill('0.20');
    await admin.getByLabel('Why, for member@example.com').fill('first month');
    await admin.getByRole('button', { name: 'Top up member@example.com' }).click();
    await expect.poll(() => admin.getByText('$0.200000 added to the balance of member@example.com').count()).toBe(1);
    await screenshot(admin, 'accounts', 'users-top-up');

    await member.getByRole('link', { name: 'Balance' }).click();
    expect(await balanceText(member)).toBe('$0.200000');

    // Spent until refused.
    let served = 0;
    let last = 'ok';
    for (let tries = 0; tries < 60 && last === 'ok'; tries += 1) {
      last = await ask();
      if (last === 'ok') served += 1;
    }
    expect(served).toBeGreaterThan(0);
    expect(last).toBe('balance_exhausted');
    // The usage rows follow within a second; the balance is what is left.
    await expect
      .poll(
        async () => {
          await member.reload();
          return balanceText(member);
        },
        { timeout: 20_000 },
      )
      .not.toBe('$0.200000');
    expect(await member.locator('#balance-history').textContent()).toMatch(/Usage.*requests?/);
    expect(await member.locator('#low-balance').count()).toBe(1);
    await screenshot(member, 'accounts', 'balance-low');

    // The admin makes a code; the member redeems it and carries on.
    await admin.getByRole('link', { name: 'Codes' }).click();
    await admin.getByLabel('How many').fill('1');
    await admin.getByLabel('Worth each (USD)').fill('1');
    await admin.getByRole('button', { name: 'Create codes' }).click();
    const code = ((await admin.locator('#new-codes').textContent()) ?? '').trim();
    expect(code).toMatch(/^SY-/);
    await screenshot(admin, 'accounts', 'codes');
    await member.getByLabel('Redemption code').fill(code);
    await member.getByRole('button', { name: 'Redeem' }).click();
    await expect.poll(() => member.getByText('$1.000000 added to your balance.').count()).toBe(1);
    expect(await ask()).toBe('ok');
    await member.getByLabel('Redemption code').fill(code);
    await member.getByRole('button', { name: 'Redeem' }).click();
    await expect.poll(() => member.getByText('This code was redeemed already.').count()).toBe(1);

    // The admin makes a password-reset link; the member uses it, and signs in with the new password.
    await admin.getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('button', { name: 'Password reset link member@example.com' }).click();
    const link = ((await admin.locator('#reset-link').textContent()) ?? '').trim();
    expect(link).toContain('/console/reset-password?token=');
    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(link);
    await stranger.getByLabel('New password').fill('a new member password');
    await stranger.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => stranger.getByText('Your password is changed').count()).toBe(1);
    await stranger.goto(`${base}/sign-in`);
    await stranger.getByLabel('E-mail').fill('member@example.com');
    await stranger.getByLabel('Password').fill('a new member password');
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await stranger.waitForURL(`${base}/keys`);

    // The audit log shows each admin step.
    await admin.goto(`${base}/audit`);
    const audit = (await admin.locator('#audit-log').textContent()) ?? '';
    for (const action of ['balance.top-up', 'codes.created', 'user.reset-link']) expect(audit).toContain(action);
    expect(audit).toContain('first month');
    await screenshot(admin, 'accounts', 'audit');
  }, 120_000);
});
