import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockProvider, gateway, GatewayError, customErrorCode, switchyardConsole, type Gateway } from '../../src/index.js';
import { silentLogger } from '../../src/logger.js';
import { testDatabase } from '../helpers/test-database.js';

/** A browser without a browser: keeps the cookies a path was given, reads each form's CSRF token. */
class Visitor {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];
  /** Default: the host app's server (its address is known only once it listens). */
  constructor(readonly at?: string) {}
  get origin(): string {
    return this.at ?? origin;
  }

  async get(path: string): Promise<{ status: number; text: string; location: string | null }> {
    return this.send('GET', path);
  }

  /** Posts a form with the CSRF token of the page at `from` (default: the same path). */
  async post(path: string, form: Record<string, string>, from = path, headers: Record<string, string> = {}) {
    const page = await this.get(from);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    return this.send('POST', path, new URLSearchParams({ csrf, ...form }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: this.origin,
      ...headers,
    });
  }

  async send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.origin}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      ...(body === undefined ? {} : { body }),
    });
    this.lastSetCookie = response.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  }
}

const database = testDatabase('sqlite');
let api: Gateway;
let server: Server;
let origin = '';

beforeAll(async () => {
  const busy = createMockProvider({
    error: new GatewayError({ kind: 'rate_limit', code: customErrorCode('UPSTREAM_RATE_LIMITED'), message: 'The provider is busy.' }),
  });
  api = gateway({
    database: await database.open(),
    providers: { busy },
    models: [
      { id: 'mock', provider: 'mock', price: { input: 1, output: 2 } },
      { id: 'other', provider: 'mock' },
      { id: 'busy', provider: 'busy' },
    ],
    // One attempt per request: the usage page's counts below are per ledger row (each retry is one).
    retries: { attempts: 0 },
    logger: silentLogger,
  });
  const app = express();
  app.get('/', (_req, res) => res.send('the host app’s own home page'));
  app.use(
    '/console',
    switchyardConsole({
      gateway: api,
      registration: 'invite',
      admins: ['boss@example.com'],
      trustProxy: true,
      loginLimits: { perAccount: 3 },
      logger: silentLogger,
    }),
  );
  app.use(api);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await api.close();
  await database.remove();
});

const keyIn = (text: string) => /<output id="new-key"[^>]*>([^<]+)<\/output>/.exec(text)?.[1] ?? '';
const publicIdOf = (key: string) => key.slice(6, 22);

describe('the console mounted in a host app (Express, /console, SQLite, registration by invitation)', () => {
  const first = new Visitor();
  const second = new Visitor();
  let invite = '';
  let userKey = '';

  it('should leave the host app’s routes and the API alone, and serve its pages under the mount path', async () => {
    expect(await (await fetch(`${origin}/`)).text()).toBe('the host app’s own home page');
    expect((await fetch(`${origin}/v1/models`)).status).toBe(401);
    const home = await first.get('/console/');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/console/register'); // nobody has registered yet
    expect(first.lastSetCookie.join('\n')).toMatch(/^switchyard_presession=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Lax$/);
    const signIn = await first.get('/console/sign-in');
    expect(signIn.text).toContain('href="/console/assets/console.css"');
    expect(signIn.text).toContain('action="/console/sign-in"');
  });

  it('should let the first person register (as admin) even by invitation, then only people with a link, each link once', async () => {
    const registered = await first.post('/console/register', { email: 'first@example.com', password: 'a long enough password' });
    expect(registered.status).toBe(303);
    expect((await first.get('/console/users')).text).toContain('first@example.com</td><td>admin');

    expect((await second.get('/console/register')).status).toBe(403);
    const made = await first.post('/console/users/invite', {}, '/console/users');
    invite = /register\?invite=([A-Za-z0-9_-]+)/.exec(made.text)?.[1] ?? '';
    expect(invite).not.toBe('');
    expect((await second.get(`/console/register?invite=${invite}`)).status).toBe(200);
    const joined = await second.post(
      '/console/register',
      { email: 'second@example.com', password: 'another long password', invite },
      `/console/register?invite=${invite}`,
    );
    expect(joined.status).toBe(303);
    expect((await second.get('/console/keys')).text).toContain('second@example.com</span>');
    expect((await second.get('/console/users')).status).toBe(404); // not an admin

    const third = new Visitor();
    expect((await third.get(`/console/register?invite=${invite}`)).status).toBe(403);
  });

  it('should make an address named in `admins` an admin when it registers', async () => {
    const made = await first.post('/console/users/invite', {}, '/console/users');
    const link = /register\?invite=([A-Za-z0-9_-]+)/.exec(made.text)?.[1] ?? '';
    const boss = new Visitor();
    await boss.post(
      '/console/register',
      { email: 'Boss@Example.com', password: 'the boss password', invite: link },
      `/console/register?invite=${link}`,
    );
    expect((await boss.get('/console/keys')).text).toContain('boss@example.com (admin)');
  });

  it('should let users widen nothing: an admin sets a key’s limits, its owner can only lower them', async () => {
    const created = await second.post('/console/keys', { name: 'ci' }, '/console/keys');
    expect(created.status).toBe(201);
    userKey = keyIn(created.text);
    const publicId = publicIdOf(userKey);

    const set = await first.post(`/console/keys/${publicId}`, {
      name: 'ci',
      rpm: '60',
      budget_usd: '5',
      budget_period: 'month',
      models: 'mock',
    });
    expect(set.status).toBe(303);
    expect(await api.keys?.get(publicId)).toMatchObject({
      models: ['mock'],
      limits: { requestsPerMinute: 60 },
      budget: { nanoUsd: 5e9, period: 'month' },
    });

    const raise = await second.post(`/console/keys/${publicId}`, {
      name: 'ci',
      rpm: '120',
      budget_usd: '5',
      budget_period: 'month',
      models: 'mock',
    });
    expect(raise.status).toBe(400);
    expect(raise.text).toContain('Only an admin can raise or remove this key’s limit');
    const moreModels = await second.post(`/console/keys/${publicId}`, {
      name: 'ci',
      rpm: '60',
      budget_usd: '5',
      budget_period: 'month',
      models: 'other',
    });
    expect(moreModels.status).toBe(400);
    const lower = await second.post(`/console/keys/${publicId}`, {
      name: 'ci renamed',
      rpm: '30',
      budget_usd: '1',
      budget_period: 'month',
      models: 'mock',
    });
    expect(lower.status).toBe(303);
    expect(await api.keys?.get(publicId)).toMatchObject({
      name: 'ci renamed',
      limits: { requestsPerMinute: 30 },
      budget: { nanoUsd: 1e9, period: 'month' },
    });

    // The change holds at once: the key now refuses the model it lost.
    const openai = new OpenAI({ baseURL: `${origin}/v1`, apiKey: userKey, maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: 'other', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 403,
    });
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('should show users only their own keys and usage, and keep them from others’ keys', async () => {
    const adminKey = keyIn((await first.post('/console/keys', { name: 'admin key' }, '/console/keys')).text);
    const adminId = publicIdOf(adminKey);
    const adminClient = new OpenAI({ baseURL: `${origin}/v1`, apiKey: adminKey, maxRetries: 0 });
    await adminClient.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    await expect(adminClient.chat.completions.create({ model: 'busy', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject(
      { status: 429 },
    );

    const keys = await second.get('/console/keys');
    expect(keys.text).toContain(publicIdOf(userKey));
    expect(keys.text).not.toContain(adminId);
    expect((await second.get(`/console/keys/${adminId}`)).status).toBe(404);
    expect((await second.post(`/console/keys/${adminId}/revoke`, {}, '/console/keys')).status).toBe(404);
    expect((await api.keys?.get(adminId))?.revokedAt).toBeUndefined();

    await expect
      .poll(async () => (await first.get('/console/usage.csv')).text.includes(`,${adminId},admin key,busy,`), { timeout: 5_000 })
      .toBe(true);
    // The provider's 429 is one attempt answered 429, and its request failed; it has no cost.
    expect((await first.get('/console/usage.csv')).text).toMatch(
      new RegExp(`,${adminId},admin key,busy,1,1,0,0,0,0\\.000000000,0,1,1\\r\\n`),
    );
    const theirs = (await second.get('/console/usage.csv')).text;
    expect(theirs).toContain(publicIdOf(userKey));
    expect(theirs).not.toContain(adminId);
    expect((await first.get('/console/usage.csv')).text).toContain(publicIdOf(userKey));
  });

  it('should mark cookies Secure behind a trusted proxy that says HTTPS, and check Origin against the forwarded host', async () => {
    const visitor = new Visitor();
    await visitor.send('GET', '/console/sign-in', undefined, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'llm.example.com' });
    expect(visitor.lastSetCookie[0]).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const page = await visitor.send('GET', '/console/sign-in', undefined, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'llm.example.com',
    });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const form = new URLSearchParams({ csrf, email: 'first@example.com', password: 'a long enough password' }).toString();
    const proxied = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'llm.example.com',
    };
    expect((await visitor.send('POST', '/console/sign-in', form, { ...proxied, origin: 'http://llm.example.com' })).status).toBe(403);
    const signedIn = await visitor.send('POST', '/console/sign-in', form, { ...proxied, origin: 'https://llm.example.com' });
    expect(signedIn.status).toBe(303);
    expect(visitor.lastSetCookie.find((line) => line.startsWith('switchyard_session='))).toMatch(
      /HttpOnly; SameSite=Lax; Secure; Max-Age=604800$/,
    );
  });

  it('should count failed sign-ins per account in the database: a new console on the same database refuses too', async () => {
    const visitor = new Visitor();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await visitor.post('/console/sign-in', { email: 'second@example.com', password: 'not it' }, '/console/sign-in')).status).toBe(
        401,
      );
    }
    // Another instance (its own handler and gateway over the same database) sees the same count.
    const other = gateway({ database: await database.open(), logger: silentLogger });
    const otherServer = createServer(switchyardConsole({ gateway: other, loginLimits: { perAccount: 3 }, logger: silentLogger }));
    await new Promise<void>((resolve) => otherServer.listen(0, '127.0.0.1', resolve));
    try {
      const elsewhere = new Visitor(`http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`);
      const refused = await elsewhere.post('/sign-in', { email: 'second@example.com', password: 'another long password' }, '/sign-in');
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('LOGIN_RATE_LIMITED');
      // Another account from the same address is not locked by it.
      expect(
        (await elsewhere.post('/sign-in', { email: 'first@example.com', password: 'a long enough password' }, '/sign-in')).status,
      ).toBe(303);
    } finally {
      otherServer.closeAllConnections();
      await new Promise((resolve) => otherServer.close(resolve));
      await other.close();
    }
  });

  it('should serve under `basePath` on a plain node:http server, and nothing outside it', async () => {
    const other = gateway({ database: await database.open(), logger: silentLogger });
    const plain = createServer(switchyardConsole({ gateway: other, basePath: '/console/', logger: silentLogger }));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const visitor = new Visitor(`http://127.0.0.1:${(plain.address() as AddressInfo).port}`);
      expect((await visitor.get('/console')).location).toBe('/console/sign-in');
      const signIn = await visitor.get('/console/sign-in');
      expect(signIn.status).toBe(200);
      expect(signIn.text).toContain('action="/console/sign-in"');
      expect((await visitor.get('/sign-in')).status).toBe(404);
      expect((await visitor.get('/consoleX/sign-in')).status).toBe(404);
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
      await other.close();
    }
  });

  it('should refuse to start without a database', () => {
    const bare = gateway({ logger: silentLogger });
    expect(() => switchyardConsole({ gateway: bare })).toThrow(expect.objectContaining({ code: 'CONFIG_CONSOLE_NEEDS_DATABASE' }));
    void bare.close();
  });
});
