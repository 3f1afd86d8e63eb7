import { afterEach, describe, expect, it } from 'vitest';
import { parseKey } from '../../src/access/key-format.js';
import { silentLogger } from '../../src/logger.js';
import { configFileSchema, splitConfigFile } from '../../src/server/config-schema.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { ConsoleVisitor } from '../helpers/console-visitor.js';
import { testDatabase } from '../helpers/test-database.js';

const running: RunningServer[] = [];
const databases: ReturnType<typeof testDatabase>[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close().done;
  for (const database of databases.splice(0)) await database.remove();
});

async function start(settings: { docs?: false; status?: false } = {}, withDatabase = true): Promise<RunningServer> {
  const database = testDatabase('sqlite');
  if (withDatabase) databases.push(database);
  const server = await startServer(withDatabase ? { database: await database.open(), logger: silentLogger } : { logger: silentLogger }, {
    port: 0,
    host: '127.0.0.1',
    shutdownTimeoutMs: 1_000,
    ...settings,
  });
  running.push(server);
  return server;
}

describe('the guide in the standalone server', () => {
  it('should be at /docs beside the console, linking the status page and the console', async () => {
    const server = await start();
    expect(server.docsUrl).toBe(`${server.root}/docs`);
    const home = await fetch(`${server.root}/docs`);
    expect(home.status).toBe(200);
    const text = await home.text();
    expect(text).toContain('<a class="status-link" href="/status">Status page</a>');
    expect(text).toContain('<a href="/">Console</a>');
    expect((await fetch(`${server.root}/docs/assets/docs.css`)).status).toBe(200);
    // The console and the API keep their paths.
    expect((await fetch(`${server.root}/sign-in`)).status).toBe(200);
    expect((await fetch(`${server.root}/status`)).status).toBe(200);
  });

  it('should name the signed-in console user’s live keys on every page, and nobody’s to a visitor without a session', async () => {
    const server = await start();
    const visitor = new ConsoleVisitor(server.root);
    expect((await visitor.post('/register', { email: 'ada@example.com', password: 'a long enough password' })).status).toBe(303);
    const created = await visitor.post('/keys', { name: 'laptop' }, '/keys');
    expect(created.status).toBe(201);
    const parsed = parseKey(/<output id="new-key"[^>]*>([^<]+)<\/output>/.exec(created.text)?.[1] ?? '');
    if (!parsed.ok) throw new Error('no key on the page');
    const page = await visitor.get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Signed in to the console as ada@example.com: your key <code>${parsed.publicId}</code>.`);
    const search = await visitor.get('/docs/search?q=key');
    expect(search.text).toContain(`<code>${parsed.publicId}</code>`);

    const stranger = await fetch(`${server.root}/docs`);
    expect(await stranger.text()).not.toContain('Signed in');
    // A revoked key is not one to use.
    await visitor.post(`/keys/${parsed.publicId}/revoke`, {}, `/keys/${parsed.publicId}`);
    expect((await visitor.get('/docs')).text).toContain(
      'Signed in to the console as ada@example.com: you have no live key yet (<a href="/">create one in the console</a>)',
    );
  });

  it('should be off with server.docs: false, and leave out the status link with the status page off', async () => {
    const off = await start({ docs: false });
    expect(off.docsUrl).toBeUndefined();
    expect((await fetch(`${off.root}/docs`)).status).toBe(404);
    expect(splitConfigFile(configFileSchema.parse({ server: { docs: false } })).server.docs).toBe(false);
    expect(configFileSchema.safeParse({ server: { docs: true } }).success).toBe(false);

    const bare = await start({ status: false }, false);
    const text = await (await fetch(`${bare.root}/docs`)).text();
    // (The guide's own pages may be called Status page and Console: only the header's links go.)
    expect(text).not.toContain('class="status-link"');
    expect(text).not.toContain('Requests failing?');
    expect(text).not.toContain('<a href="/">Console</a>');
  });
});
