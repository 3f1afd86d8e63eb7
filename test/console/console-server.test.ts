import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { configFileSchema, splitConfigFile } from '../../src/server/config-schema.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { testDatabase } from '../helpers/test-database.js';

const running: RunningServer[] = [];
const databases: ReturnType<typeof testDatabase>[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close().done;
  for (const database of databases.splice(0)) await database.remove();
});

async function start(console?: false | { registration: 'closed' }): Promise<RunningServer> {
  const database = testDatabase('sqlite');
  databases.push(database);
  const server = await startServer(
    { database: await database.open(), logger: silentLogger },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000, ...(console === undefined ? {} : { console }) },
  );
  running.push(server);
  return server;
}

describe('the console in the standalone server', () => {
  it('should be on at / by default, beside /health and the API under /v1', async () => {
    const server = await start();
    expect(server.consoleUrl).toBe(`${server.root}/`);
    const home = await fetch(`${server.root}/`, { redirect: 'manual' });
    expect(home.status).toBe(303);
    // A fresh install: nobody to sign in yet, so the first visitor registers (as the admin).
    expect(home.headers.get('location')).toBe('/register');
    expect((await fetch(`${server.root}/health`)).status).toBe(200);
    const api = await fetch(`${server.openAIBaseURL}/models`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
    // A path neither serves is the gateway's JSON 404, not a page.
    const unknown = await fetch(`${server.root}/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });

  it('should leave a request without /v1 that carries a key or asks for JSON to the API, which says /v1 is missing', async () => {
    const server = await start();
    // What the openai SDK sends with the API root as its base URL: the console must not answer it.
    const openai = new OpenAI({ baseURL: server.root, apiKey: 'sk-anything', maxRetries: 0 });
    const listed = await openai.models.list().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(listed).toBeInstanceOf(OpenAI.NotFoundError);
    expect((listed as InstanceType<typeof OpenAI.NotFoundError>).message).toContain(`OpenAI clients take ${server.root}/v1`);
    for (const headers of [{ authorization: 'Bearer sk-anything' }, { 'x-api-key': 'sk-anything' }] as Array<Record<string, string>>) {
      const models = await fetch(`${server.root}/models`, { headers, redirect: 'manual' });
      expect(models.status).toBe(404);
      expect(((await models.json()) as { error: { code: string } }).error.code).toBe('missing_v1_path');
    }
    const json = await fetch(`${server.root}/models`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(json.status).toBe(404);
    expect(json.headers.get('content-type')).toContain('application/json');
    // A browser, even one sending a proxy's Basic credentials, still gets the console.
    for (const headers of [
      { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      { accept: 'text/html', authorization: 'Basic dTpw' },
    ] as Array<Record<string, string>>) {
      const page = await fetch(`${server.root}/models`, { headers, redirect: 'manual' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/register');
    }
  });

  it('should be off with console: false (--no-console), leaving / to the gateway', async () => {
    const server = await start(false);
    expect(server.consoleUrl).toBeUndefined();
    const home = await fetch(`${server.root}/sign-in`);
    expect(home.status).toBe(404);
    expect(home.headers.get('content-type')).toContain('application/json');
  });

  it('should take its options from server.console (closed registration still lets the first user in)', async () => {
    const server = await start({ registration: 'closed' });
    expect((await fetch(`${server.root}/register`)).status).toBe(200);
  });

  it('should read server.console from a config file and --no-console from the command line', () => {
    const file = configFileSchema.parse({
      server: { console: { registration: 'invite', admins: ['ops@example.com'], userKeys: { budget: { usd: 20, period: 'month' } } } },
    });
    expect(splitConfigFile(file).server.console).toEqual({
      registration: 'invite',
      admins: ['ops@example.com'],
      userKeys: { budget: { usd: 20, period: 'month' } },
    });
    expect(splitConfigFile(configFileSchema.parse({ server: { console: false } })).server.console).toBe(false);
    expect(configFileSchema.safeParse({ server: { console: { registration: 'sometimes' } } }).success).toBe(false);
    expect(parseCliArgs(['serve', '--no-console'])).toEqual({ command: 'serve', noConsole: true });
  });
});
