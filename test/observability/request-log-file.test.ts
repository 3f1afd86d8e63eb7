import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway } from '../../src/index.js';
import { silentLogger } from '../../src/logger.js';

const KEY = 'sk-gw-file-log';
let dir = '';
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

const linesOf = async (path: string) =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { msg: string; requestId: string; level: string });

describe('requestLog: { file }', () => {
  it('should append one line per request to the file, in batches, all of them by the time close() resolves', async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-log-'));
    const path = join(dir, 'logs', 'requests.log');
    const handle = gateway({
      apiKeys: [KEY],
      logger: silentLogger,
      providers: { mock: { type: 'mock' } },
      models: [{ id: 'mock', provider: 'mock' }],
      requestLog: { file: path },
    });
    server = createServer(handle).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const client = new OpenAI({ apiKey: KEY, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        client.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: `Hi ${index}` }] }).withResponse(),
      ),
    );
    await handle.close();
    const lines = await linesOf(path);
    expect(lines.map((line) => line.requestId).sort()).toEqual(answers.map(({ response }) => response.headers.get('x-request-id')).sort());
    expect(lines.every((line) => line.msg === 'request' && line.level === 'info')).toBe(true);
  });

  it('should hold the lines for flushMs, then write them', async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-log-'));
    const path = join(dir, 'requests.log');
    const handle = gateway({
      apiKeys: [KEY],
      logger: silentLogger,
      providers: { mock: { type: 'mock' } },
      models: [{ id: 'mock', provider: 'mock' }],
      requestLog: { file: path, flushMs: 5_000 },
    });
    server = createServer(handle).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const client = new OpenAI({ apiKey: KEY, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    await client.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] });
    // Well past the default 10 ms window, the line is still held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readFile(path, 'utf8')).toBe('');
    await handle.close();
    expect(await linesOf(path)).toHaveLength(1);
  });

  it('should refuse a negative flushMs', () => {
    expect(() => gateway({ apiKeys: [KEY], logger: silentLogger, requestLog: { file: 'x.log', flushMs: -1 } })).toThrow(/requestLog/);
  });

  it('should refuse an empty file name', () => {
    expect(() => gateway({ apiKeys: [KEY], logger: silentLogger, requestLog: { file: '' } })).toThrow(/requestLog/);
  });
});
