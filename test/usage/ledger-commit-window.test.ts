import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway } from '../../src/index.js';
import { silentLogger } from '../../src/logger.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { useScratch } from '../helpers/scratch.js';

const KEY = 'sk-gw-commit-window';
const scratch = useScratch();
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  server = undefined;
});

const rowsIn = async (file: string) => {
  const database = await openDatabase({ url: file });
  try {
    return await database.db.selectFrom('usage_ledger').select('request_id').execute();
  } finally {
    await database.close();
  }
};

describe('ledger: { commitEveryMs }', () => {
  it('should hold finished rows for the window it sets, and commit them when the gateway closes', async () => {
    const file = scratch.file('ledger-window');
    const handle = gateway({
      apiKeys: [KEY],
      logger: silentLogger,
      providers: { mock: { type: 'mock' } },
      models: [{ id: 'mock', provider: 'mock' }],
      database: file,
      ledger: { commitEveryMs: 5_000 },
    });
    await handle.ready();
    server = createServer(handle).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const client = new OpenAI({ apiKey: KEY, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    const { response } = await client.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    // Well past the default 50 ms window, the row is still held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rowsIn(file)).toEqual([]);
    await handle.close();
    expect(await rowsIn(file)).toEqual([{ request_id: response.headers.get('x-request-id') }]);
  });

  it('should record a request that ends as the gateway closes before the ledger closes', async () => {
    const file = scratch.file('ledger-closing');
    const handle = gateway({
      apiKeys: [KEY],
      logger: silentLogger,
      providers: { mock: { type: 'mock', chunks: 50, chunkDelayMs: 20 } },
      models: [{ id: 'mock', provider: 'mock' }],
      database: file,
    });
    await handle.ready();
    server = createServer(handle).listen(0, '127.0.0.1');
    await new Promise((resolve) => server!.once('listening', resolve));
    const client = new OpenAI({ apiKey: KEY, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    const reading = (async () => {
      for await (const _ of stream);
    })().catch(() => undefined);
    // Closing ends the stream: its record is handed over as the close waits for it, and must be written before the ledger closes.
    await handle.close();
    expect(await rowsIn(file)).toEqual([{ request_id: response.headers.get('x-request-id') }]);
    await reading;
  });

  it('should refuse a window that is not a positive whole number of ms', () => {
    expect(() => gateway({ apiKeys: [KEY], logger: silentLogger, database: ':memory:', ledger: { commitEveryMs: 0 } })).toThrow(/ledger/);
  });
});
