import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseWriter, startSse } from '../../src/http/sse-writer.js';

const EVENT = `data: ${'x'.repeat(20 * 1024)}\n\n`; // over the writer's 16 KB flush size: each write goes out at once

interface Served {
  episodes: number;
  listenersBefore: { drain: number; close: number };
  listenersAfter: { drain: number; close: number };
  mostListeners: number;
}

let server: Server | undefined;
afterEach(() => server?.close());

/** Streams `events` events through SseWriter to a client that reads one chunk per timer tick. */
async function streamToSlowReader(events: number): Promise<Served> {
  let resolveServed!: (served: Served) => void;
  const served = new Promise<Served>((resolve) => (resolveServed = resolve));
  server = createServer(async (_req, res) => {
    await startSse(res, 'req_test', '');
    const count = () => ({ drain: res.listenerCount('drain'), close: res.listenerCount('close') });
    const listenersBefore = count();
    const writer = new SseWriter(res);
    let episodes = 0;
    let mostListeners = 0;
    for (let sent = 0; sent < events; sent++) {
      const full = writer.write(EVENT);
      if (full) {
        episodes++;
        await full;
      }
      mostListeners = Math.max(mostListeners, res.listenerCount('drain') + res.listenerCount('close'));
    }
    const listenersAfter = count();
    writer.end();
    resolveServed({ episodes, listenersBefore, listenersAfter, mostListeners });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const answer = request({ port, path: '/' });
  answer.end();
  const [response] = (await once(answer, 'response')) as [import('node:http').IncomingMessage];
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    response.pause();
    setImmediate(() => response.resume());
  });
  await once(response, 'end');
  expect(received).toBeGreaterThanOrEqual(events * EVENT.length);
  return served;
}

describe('SseWriter', () => {
  it('should leave no listeners behind after thousands of backpressure episodes', async () => {
    const served = await streamToSlowReader(3000);
    // Node 20's socket buffer fills at 16 KiB, Node 22+'s at 64 KiB, so the count differs by
    // version; a few hundred episodes is far past the default limit of 10 listeners either way.
    expect(served.episodes).toBeGreaterThan(200);
    expect(served.listenersAfter).toEqual(served.listenersBefore);
    // While waiting, at most one 'drain' and one 'close' listener of ours are added.
    expect(served.mostListeners).toBeLessThanOrEqual(served.listenersBefore.drain + served.listenersBefore.close + 2);
  });
});
