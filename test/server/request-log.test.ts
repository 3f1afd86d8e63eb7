import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import type { LogLevel } from '../../src/server/log-level.js';
import { formatRequestLine, printablePath, type RequestLogEntry } from '../../src/server/request-log.js';
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

/** A standalone server whose request lines go to `lines`, as on a terminal when `isTTY`. */
async function startLogged(logLevel: LogLevel, isTTY: boolean) {
  const lines: string[] = [];
  const output = { isTTY, write: (text: string) => void lines.push(text) };
  const server = await startServer({ apiKeys: [KEY], logger: silentLogger }, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 0, logLevel }, output);
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

const entry: RequestLogEntry = {
  method: 'POST',
  path: '/v1/chat/completions',
  status: 401,
  errorCode: 'INVALID_API_KEY',
  model: undefined,
  durationMs: 3,
  requestId: 'req_0196a1b2c3d4e5f60718293a4b5c6d7e',
};

describe('formatRequestLine', () => {
  it('should print time, method, path, status, code, duration and request id on a terminal', () => {
    expect(formatRequestLine(entry, true, new Date(2026, 0, 2, 10, 31, 2))).toBe(
      '10:31:02 POST /v1/chat/completions 401 INVALID_API_KEY 3ms req_0196a1b2c3d4e5f60718293a4b5c6d7e\n',
    );
    expect(formatRequestLine({ ...entry, status: 200, errorCode: undefined, model: 'gpt-5.4-mini', durationMs: 812 }, true, new Date(2026, 0, 2, 9, 5, 0))).toBe(
      '09:05:00 POST /v1/chat/completions 200 gpt-5.4-mini 812ms req_0196a1b2c3d4e5f60718293a4b5c6d7e\n',
    );
  });

  it('should print a JSON line in the shape of the log lines elsewhere', () => {
    const line = formatRequestLine(entry, false);
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: 'POST',
      path: '/v1/chat/completions',
      status: 401,
      errorCode: 'INVALID_API_KEY',
      durationMs: 3,
      requestId: entry.requestId,
      msg: 'request',
    });
  });
});

describe('printablePath', () => {
  it('should drop the query, which may carry a key', () => {
    expect(printablePath('/v1/models?key=sk-secret')).toBe('/v1/models');
  });

  it('should escape control characters and cut a long path', () => {
    expect(printablePath('/a\u001b[31m\nb')).toBe('/a\\x1b[31m\\x0ab');
    expect(printablePath(`/${'x'.repeat(500)}`)).toHaveLength(201);
  });
});

describe('createRequestLog through startServer', () => {
  it('should print a readable line per request on a terminal: 401, 404 and 200 with the model', async () => {
    const { server, lines } = await startLogged('info', true);
    await chat(server.openAIBaseURL, 'sk-wrong');
    await fetch(`${server.root}/v1/nowhere`).then((response) => response.text());
    await chat(server.openAIBaseURL, KEY);
    const printed = await waitForLines(() => lines, 3);
    expect(printed).toHaveLength(3);
    expect(printed[0]).toMatch(/^\d\d:\d\d:\d\d POST \/v1\/chat\/completions 401 INVALID_API_KEY \d+ms req_[0-9a-f]{32}\n$/);
    expect(printed[1]).toMatch(/^\d\d:\d\d:\d\d GET \/v1\/nowhere 404 NOT_FOUND \d+ms req_[0-9a-f]{32}\n$/);
    expect(printed[2]).toMatch(/^\d\d:\d\d:\d\d POST \/v1\/chat\/completions 200 mock \d+ms req_[0-9a-f]{32}\n$/);
    expect(printed.join('')).not.toContain('sk-wrong');
  });

  it('should log GET /health only at debug', async () => {
    const quiet = await startLogged('info', false);
    await fetch(`${quiet.server.root}/health`).then((response) => response.text());
    await fetch(`${quiet.server.root}/v1/nowhere`).then((response) => response.text());
    expect((await waitForLines(() => quiet.lines, 1)).map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['/v1/nowhere']);

    const debug = await startLogged('debug', false);
    await fetch(`${debug.server.root}/health`).then((response) => response.text());
    expect(JSON.parse((await waitForLines(() => debug.lines, 1))[0] ?? '{}')).toMatchObject({ path: '/health', status: 200 });
  });

  it('should add nothing to a request below info', async () => {
    const { server, lines } = await startLogged('warn', true);
    await chat(server.openAIBaseURL, 'sk-wrong');
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

  it('should print a JSON line per request when stdout is not a terminal, naming status and code', async () => {
    const running = spawnCli(['--port', '0']);
    processes.push(running);
    const banner = await readBanner(running);
    await chat(banner.openAIBaseURL, 'sk-wrong');
    await fetch(`${banner.root}/v1/embeddings`, { method: 'POST', body: '{}' }).then((response) => response.text());
    const printed = await waitForLines(() => jsonLines(running), 2);
    expect(printed).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', method: 'POST', path: '/v1/chat/completions', status: 401, errorCode: 'INVALID_API_KEY', requestId: expect.stringMatching(/^req_/) }),
      expect.objectContaining({ level: 'info', msg: 'request', method: 'POST', path: '/v1/embeddings', status: 404, errorCode: 'ENDPOINT_NOT_SUPPORTED' }),
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
