import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { configFileSchema, splitConfigFile, type ResolvedServerOptions } from '../../src/server/config-schema.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { testDatabase } from '../helpers/test-database.js';
import { startConsole } from '../helpers/console-visitor.js';

const KEY = 'sk-test-allowed-hosts-0123456789';
const running: RunningServer[] = [];
const databases: ReturnType<typeof testDatabase>[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close().done;
  for (const database of databases.splice(0)) await database.remove();
});

async function start(settings: Partial<ResolvedServerOptions> = {}): Promise<{ server: RunningServer; port: number }> {
  const database = testDatabase('sqlite');
  databases.push(database);
  const server = await startServer(
    { apiKeys: [KEY], database: await database.open(), logger: silentLogger },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000, ...settings },
  );
  running.push(server);
  return { server, port: Number(new URL(server.root).port) };
}

/** A request with a `Host` of our choosing (fetch will not send one), to 127.0.0.1:`port`. */
function send(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host, ...headers, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const chat = JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
const form = 'csrf=x&email=attacker%40example.com&password=a+long+enough+password';

describe('the standalone server and the Host header (DNS rebinding)', () => {
  it('should refuse a foreign host name on the console, the API and /health, naming the setting', async () => {
    const { port } = await start();
    const foreign = `rebind.attacker.example:${port}`;
    const origin = { origin: `http://${foreign}` };
    const signUp = await send(port, foreign, 'POST', '/register', form, { 'content-type': 'application/x-www-form-urlencoded', ...origin });
    expect(signUp.status).toBe(403);
    expect(JSON.parse(signUp.text)).toMatchObject({ error: { code: 'host_not_allowed' } });
    expect(signUp.text).toContain('server.allowedHosts');
    expect((await send(port, foreign, 'GET', '/register', undefined, origin)).status).toBe(403);
    const api = await send(port, foreign, 'POST', '/v1/chat/completions', chat, {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      ...origin,
    });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.text)).toMatchObject({ error: { type: 'permission_error', code: 'host_not_allowed' } });
    const messages = await send(port, foreign, 'POST', '/v1/messages', '{}', { 'x-api-key': KEY, 'content-type': 'application/json' });
    expect(messages.status).toBe(403);
    expect(JSON.parse(messages.text)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect((await send(port, foreign, 'GET', '/health')).status).toBe(403);
    // Nothing was made: the rebinding page did not become the first user.
    expect((await send(port, `127.0.0.1:${port}`, 'GET', '/register')).text).toContain('the first account is this gateway’s admin');
  });

  it('should answer IP addresses, localhost, *.localhost, the listen address and the configured names', async () => {
    const { port } = await start({ allowedHosts: ['llm.example.com', '.corp.example'] });
    for (const host of [
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `localhost:${port}`,
      `LOCALHOST`,
      `app.localhost:${port}`,
      'llm.example.com',
      `corp.example:${port}`,
      `gw.corp.example:${port}`,
    ]) {
      expect({ host, status: (await send(port, host, 'GET', '/health')).status }).toEqual({ host, status: 200 });
    }
    const api = await send(port, 'llm.example.com', 'POST', '/v1/chat/completions', chat, {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
    });
    expect(api.status).toBe(200);
    for (const host of ['example.com', 'llm.example.com.attacker.example', 'xcorp.example', 'a b', 'user@127.0.0.1']) {
      expect({ host, status: (await send(port, host, 'GET', '/health')).status }).toEqual({ host, status: 403 });
    }
  });

  it('should answer any name with allowedHosts: true, from the config file or --allowed-hosts', async () => {
    const { port } = await start({ allowedHosts: true });
    expect((await send(port, `rebind.attacker.example:${port}`, 'GET', '/health')).status).toBe(200);
    expect(splitConfigFile(configFileSchema.parse({ server: { allowedHosts: ['llm.example.com'] } })).server.allowedHosts).toEqual([
      'llm.example.com',
    ]);
    expect(splitConfigFile(configFileSchema.parse({ server: { allowedHosts: true } })).server.allowedHosts).toBe(true);
    expect(parseCliArgs(['serve', '--allowed-hosts', 'a.example, .b.example'])).toEqual({
      command: 'serve',
      allowedHosts: ['a.example', '.b.example'],
    });
    expect(parseCliArgs(['serve', '--allowed-hosts', '*'])).toEqual({ command: 'serve', allowedHosts: true });
  });
});

describe('the console mounted in a host app, with allowedHosts', () => {
  it('should refuse other host names on its pages and leave the rest to the host app', async () => {
    const started = await startConsole('sqlite', { allowedHosts: ['console.example'] });
    try {
      const port = Number(new URL(started.origin).port);
      expect((await send(port, 'rebind.attacker.example', 'GET', '/register')).status).toBe(403);
      expect((await send(port, 'rebind.attacker.example', 'GET', '/register')).text).toContain("the console's allowedHosts");
      expect((await send(port, 'console.example', 'GET', '/register')).status).toBe(200);
      expect((await send(port, `localhost:${port}`, 'GET', '/register')).status).toBe(200);
    } finally {
      await started.close();
    }
  });
});
