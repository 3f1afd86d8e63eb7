import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import type { LogLevel } from '../../src/server/log-level.js';
import { printablePath } from '../../src/server/request-log.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { readBanner, spawnCli, type RunningProcess } from './spawn-cli.js';

const KEY = 'sk-request-log-test';
const servers: RunningServer[] = [];
const processes: RunningProcess[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.server.closeAllConnections();
    server.server.close();
  }
  await Promise.all(processes.splice(0).map((running) => running.stop(2_000)));
});

/** A standalone server whose request lines go to `lines`. */
async function startLogged(logLevel: LogLevel) {
  const lines: string[] = [];
  const output = { write: (text: string) => void lines.push(text) };
  const server = await startServer(
    { apiKeys: [KEY], logger: silentLogger },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 0, logLevel },
    output,
  );
  servers.push(server);
  return { server, lines };
}

/** Resolves once `lines` holds `count` lines (they are written when the connection is done with a request). */
async function waitForLines<T>(lines: () => T[], count: number): Promise<T[]> {
  for (let attempt = 0; attempt < 200 && lines().length < count; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  return lines();
}

const chat = (url: string, key: string, model = 'mock') =>
  fetch(`${url}/chat/completions?key=${key}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
  }).then((response) => response.text());

describe('printablePath', () => {
  it('should drop the query, which may carry a key', () => {
    expect(printablePath('/v1/models?key=sk-secret')).toBe('/v1/models');
  });

  it('should escape control characters and cut a long path', () => {
    expect(printablePath('/a\u001b[31m\nb')).toBe('/a\\x1b[31m\\x0ab');
    expect(printablePath(`/${'x'.repeat(500)}`)).toHaveLength(201);
  });
});

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('createRequestLog through startServer', () => {
  it("should write one JSON line per request: the gateway's for generation requests, the server's for the rest", async () => {
    const { server, lines } = await startLogged('info');
    await chat(server.openAIBaseURL, 'sk-wrong');
    await fetch(`${server.root}/v1/nowhere`).then((response) => response.text());
    await chat(server.openAIBaseURL, KEY);
    const printed = parsed(await waitForLines(() => lines, 3));
    expect(printed).toHaveLength(3);
    expect(printed).toContainEqual(
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        protocol: 'chat',
        status: 401,
        errorCode: 'INVALID_API_KEY',
        attempts: 0,
        requestId: expect.stringMatching(/^req_[0-9a-f]{32}$/),
      }),
    );
    expect(printed).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'request', method: 'GET', path: '/v1/nowhere', status: 404, errorCode: 'NOT_FOUND' }),
    );
    expect(printed).toContainEqual(
      expect.objectContaining({ msg: 'request', protocol: 'chat', model: 'mock', status: 200, attempts: 1, deployment: 'mock/mock' }),
    );
    expect(lines.join('')).not.toContain('sk-wrong');
    expect(lines.join('')).not.toContain(KEY);
  });

  it('should log the probes only at debug', async () => {
    const quiet = await startLogged('info');
    await fetch(`${quiet.server.root}/health`).then((response) => response.text());
    await fetch(`${quiet.server.root}/metrics`).then((response) => response.text());
    await fetch(`${quiet.server.root}/v1/nowhere`).then((response) => response.text());
    expect(parsed(await waitForLines(() => quiet.lines, 1)).map((line) => line.path)).toEqual(['/v1/nowhere']);

    const debug = await startLogged('debug');
    await fetch(`${debug.server.root}/health`).then((response) => response.text());
    expect(parsed(await waitForLines(() => debug.lines, 1))[0]).toMatchObject({ path: '/health', status: 200 });
  });

  it('should add nothing to a request below info', async () => {
    const { server, lines } = await startLogged('warn');
    await chat(server.openAIBaseURL, 'sk-wrong');
    await fetch(`${server.root}/v1/nowhere`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toEqual([]);
  });
});

describe('the request log of switchyard serve', () => {
  /** The JSON lines a spawned CLI printed on stdout after its banner. */
  const jsonLines = (running: RunningProcess) =>
    running
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('should print a JSON line per request, naming status and code', async () => {
    const running = spawnCli(['--port', '0']);
    processes.push(running);
    const banner = await readBanner(running);
    await chat(banner.openAIBaseURL, 'sk-wrong');
    await fetch(`${banner.root}/v1/embeddings`, { method: 'POST', body: '{}' }).then((response) => response.text());
    const printed = await waitForLines(() => jsonLines(running), 2);
    expect(printed).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        protocol: 'chat',
        status: 401,
        errorCode: 'INVALID_API_KEY',
        requestId: expect.stringMatching(/^req_/),
      }),
      expect.objectContaining({
        level: 'info',
        msg: 'request',
        method: 'POST',
        path: '/v1/embeddings',
        status: 404,
        errorCode: 'ENDPOINT_NOT_SUPPORTED',
      }),
    ]);
    expect(running.stdout()).not.toContain('sk-wrong');
  });

  it('should print no request lines with --log-level warn', async () => {
    const running = spawnCli(['--port', '0', '--log-level', 'warn']);
    processes.push(running);
    const banner = await readBanner(running);
    await chat(banner.openAIBaseURL, 'sk-wrong');
    await fetch(`${banner.root}/v1/nowhere`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(jsonLines(running)).toEqual([]);
  });
});
