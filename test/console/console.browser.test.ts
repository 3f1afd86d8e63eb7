import OpenAI from 'openai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { DATABASE_URL } from '../helpers/test-database.js';

// One browser and one standalone server (console at /, API under /v1, mock model with a price) on
// a PostgreSQL schema of its own; the pages are reused across the steps of one user's day.
const PRICE = { input: 2, output: 8, cachedInput: 0.5 };
const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const foreign: string[] = [];
const consoleErrors: string[] = [];
const schema = `console_browser_${Date.now().toString(36)}`;

beforeAll(async () => {
  server = await startServer(
    {
      database: { url: DATABASE_URL, schema },
      models: [{ id: 'mock', provider: 'mock', price: PRICE, contextWindow: 200_000, maxOutputTokens: 8_192 }],
      ledger: { intervalMs: 20 },
      logger: silentLogger,
    },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000 },
  );
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.root });
  page = await context.newPage();
  // Nothing but the server itself is fetched (no CDN), and no page breaks its own Content-Security-Policy.
  page.on('request', (request) => {
    if (!request.url().startsWith(server.root)) foreign.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close().done;
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

/** The ids (or names) of the page's visible form fields that no label names. */
const UNLABELLED_FIELDS = `[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((field) => field.labels.length === 0 && !field.getAttribute('aria-label')).map((field) => field.id || field.name)`;

const usd = (nanoUsd: number) => `$${(nanoUsd / 1e9).toFixed(6)}`;

describe('the console in a real browser', () => {
  let key = '';
  let publicId = '';

  it('should send the first visitor of a fresh install to register, and let them register as admin', async () => {
    // Nobody to sign in yet: the first visit lands on Register, not Sign in.
    await page.goto(`${server.root}/keys`);
    expect(new URL(page.url()).pathname).toBe('/register');
    await page.goto(`${server.root}/sign-in`);
    await screenshot(page, 'console', 'sign-in');

    // The keyboard's first stop skips the header; every field has a label.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to the page');
    expect(await page.evaluate(UNLABELLED_FIELDS)).toEqual([]);

    await page.getByRole('link', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('the first account is this gateway’s admin').count()).toBe(1);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await screenshot(page, 'console', 'register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${server.root}/keys`);
    expect(await page.getByText(`${EMAIL} (admin)`).count()).toBe(1);

    const session = (await context.cookies()).find((cookie) => cookie.name === 'switchyard_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false });
  }, 30_000);

  it('should show a new key once, with a copy button and the advice to keep it in a secret manager', async () => {
    await page.getByLabel('Name').fill('laptop — scripts');
    await page.getByRole('button', { name: 'Create key' }).click();
    const output = page.locator('#new-key');
    key = (await output.textContent()) ?? '';
    expect(key).toMatch(/^sk-sy-[A-Za-z0-9_-]{65}$/);
    publicId = key.slice('sk-sy-'.length, 'sk-sy-'.length + 16);
    expect(await page.getByText('it is shown only this once').count()).toBe(1);
    expect(await page.getByText('secret manager').count()).toBe(1);
    expect(await page.getByText('one key per client').count()).toBe(1);

    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await page.getByRole('button', { name: 'Copy line' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`export SWITCHYARD_API_KEY='${key}'`);
    await screenshot(page, 'console', 'key-created');

    // "How to use it" opens Connect beside the key: the one showing is still there to save.
    const [connect] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'How to use it' }).click()]);
    await connect.waitForLoadState();
    expect(new URL(connect.url()).pathname).toBe('/connect');
    expect(await page.locator('#new-key').textContent()).toBe(key);
    await connect.close();

    // Once: the list shows its public id, never the key again.
    await page.goto(`${server.root}/keys`);
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('code', { hasText: publicId }).count()).toBe(1);
    expect(await page.evaluate(UNLABELLED_FIELDS)).toEqual([]);
    await screenshot(page, 'console', 'keys');
  }, 30_000);

  it('should serve the key on the same server, and show the request in usage with its tokens and cost', async () => {
    const openai = new OpenAI({ baseURL: server.openAIBaseURL, apiKey: key, maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Hello from the console test' }],
    });
    const inputTokens = completion.usage?.prompt_tokens ?? 0;
    const outputTokens = completion.usage?.completion_tokens ?? 0;
    expect(inputTokens).toBeGreaterThan(0);
    expect(outputTokens).toBeGreaterThan(0);
    const cost = inputTokens * PRICE.input * 1_000 + outputTokens * PRICE.output * 1_000;

    const row = page.locator('tbody tr', { hasText: publicId });
    await expect
      .poll(
        async () => {
          await page.goto(`${server.root}/usage`);
          return row.count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    const cells = await row.locator('td').allTextContents();
    // Day, key, model, requests, attempts, input, cached, output, cost, failed requests, 429s.
    expect(cells.slice(2, 11).map((cell) => cell.trim())).toEqual([
      'mock',
      '1',
      '1',
      String(inputTokens),
      '0',
      String(outputTokens),
      usd(cost),
      '0',
      '0',
    ]);
    expect(await page.locator('svg[role=img] rect').count()).toBeGreaterThan(0);
    expect(await page.evaluate(UNLABELLED_FIELDS)).toEqual([]);
    await screenshot(page, 'console', 'usage');

    const csv = await page.request.get(`${server.root}/usage.csv`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'day,key_id,key_name,model,requests,attempts,input_tokens,cached_input_tokens,output_tokens,cost_usd,unpriced_requests,errors,rate_limited_429',
    );
    expect(lines[1]).toContain(`,${publicId},laptop — scripts,mock,1,1,${inputTokens},0,${outputTokens},${(cost / 1e9).toFixed(9)},0,0,0`);
  }, 30_000);

  it('should list the models with their prices, and snippets that never hold part of a key', async () => {
    await page.goto(`${server.root}/models`);
    const model = await page.locator('tbody tr', { hasText: 'mock' }).locator('td').allTextContents();
    expect(model.slice(0, 8).map((cell) => cell.trim())).toEqual(['mock', 'mock', '$2', '$0.5', '$8', '$0.006000', '200,000', '8,192']);
    await screenshot(page, 'console', 'models');

    await page.goto(`${server.root}/connect`);
    await page.getByLabel('Key to fill in').selectOption(publicId);
    await page.getByRole('button', { name: 'Fill in' }).click();
    // No part of a key where it could be copied as one: every copy button gives text an HTTP header takes.
    expect(await page.content()).not.toMatch(/sk-sy-[A-Za-z0-9_-]*…/);
    expect(await page.getByText(`it begins sk-sy-${publicId}`).count()).toBe(1);
    await screenshot(page, 'console', 'connect');
    const copied: string[] = [];
    for (const button of await page.locator('button[data-copy]').all()) {
      await button.click();
      copied.push(await page.evaluate<string>('navigator.clipboard.readText()'));
    }
    expect(copied).toContain('read -rs SWITCHYARD_API_KEY && export SWITCHYARD_API_KEY');
    expect(copied.filter((text) => !/^[\x20-\x7e\n]*$/.test(text))).toEqual([]);
    expect(await page.locator('#base-openai').textContent()).toBe(`${server.root}/v1`);
    expect(await page.locator('#base-root').textContent()).toBe(server.root);
    expect(await page.locator('#snippet-claude-code').textContent()).toContain(`ANTHROPIC_BASE_URL='${server.root}'`);
    expect(await page.content()).not.toContain(key);
  }, 30_000);

  it('should fit a phone: wide tables scroll inside themselves, and no public id or date breaks across lines', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 360, height: 740 });
    // Line boxes of each id and date cell's text: one when it does not wrap.
    const wrapped = `[...document.querySelectorAll('td code, td.when')].filter((cell) => { const range = document.createRange(); range.selectNodeContents(cell); return range.getClientRects().length > 1; }).length`;
    for (const path of ['/keys', '/usage']) {
      await phone.goto(`${server.root}${path}`);
      expect(await phone.evaluate('document.querySelectorAll("td code, td.when").length')).toBeGreaterThan(0);
      expect(
        await phone.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
        `${path} scrolls sideways`,
      ).toBeLessThanOrEqual(0);
      expect(await phone.evaluate(wrapped), `${path}: an id or date on two lines`).toBe(0);
    }
    await phone.close();
  }, 30_000);

  it('should refuse forms without the right CSRF token or from another origin', async () => {
    await page.goto(`${server.root}/keys`);
    const token = await page.locator('input[name=csrf]').first().inputValue();
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      page.request.post(`${server.root}/keys`, { form, headers, maxRedirects: 0 });
    expect((await post({ name: 'no token' })).status()).toBe(403);
    expect((await post({ name: 'wrong token', csrf: `${token.slice(0, -2)}xx` })).status()).toBe(403);
    expect((await post({ name: 'other site', csrf: token }, { origin: 'https://attacker.example' })).status()).toBe(403);
    const refused = await post({ name: 'no token' });
    expect(await refused.text()).toContain('CSRF_TOKEN_INVALID');
    // The same form with its token is accepted: the refusals above were the token's doing.
    expect((await post({ name: 'with token', csrf: token }, { origin: server.root })).status()).toBe(201);
    await page.goto(`${server.root}/keys`);
    expect(await page.locator('td', { hasText: 'no token' }).count()).toBe(0);
  }, 30_000);

  it('should revoke the key, after which the gateway refuses it with a 401', async () => {
    await page.goto(`${server.root}/keys`);
    await page.getByRole('button', { name: 'Revoke laptop — scripts' }).click();
    await page.waitForURL(/\/keys\?revoked=/);
    expect(await page.locator('tbody tr', { hasText: publicId }).locator('td').nth(3).textContent()).toMatch(/^revoked/);

    const openai = new OpenAI({ baseURL: server.openAIBaseURL, apiKey: key, maxRetries: 0 });
    const refused = await openai.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'Hello again' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  }, 30_000);

  it('should end the session on sign-out: the old cookie no longer signs anyone in', async () => {
    const session = (await context.cookies()).find((cookie) => cookie.name === 'switchyard_session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    const replay = await fetch(`${server.root}/keys`, {
      headers: { cookie: `switchyard_session=${session?.value ?? ''}` },
      redirect: 'manual',
    });
    // Someone has registered: a visitor without a session is now sent to sign in.
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/sign-in');
  }, 30_000);

  it('should fetch nothing from elsewhere and break no Content-Security-Policy on any page', () => {
    expect(foreign).toEqual([]);
    // The only errors the browser logged are the answers the tests asked for (401 sign-ins come later).
    expect(consoleErrors.filter((text) => !/status of (401|403|429)/.test(text))).toEqual([]);
  });

  it('should refuse sign-in for a while after five wrong passwords, even with the right one', async () => {
    await page.goto(`${server.root}/sign-in`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password').fill(`wrong password ${attempt}`);
      const answer = page.waitForResponse((response) => response.url().endsWith('/sign-in') && response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await answer).status()).toBe(401);
    }
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    const answer = page.waitForResponse((response) => response.url().endsWith('/sign-in') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await answer).status()).toBe(429);
    expect(await page.getByRole('alert').textContent()).toContain('LOGIN_RATE_LIMITED');
  }, 60_000);
});
