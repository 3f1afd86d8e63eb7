import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import type { ProviderAdapter } from '../../src/providers/types.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A Chat Completions upstream on loopback that tracks its open connections. */
async function startChatUpstream() {
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return { url: await listen(server), sockets };
}

describe('gateway', () => {
  describe('close', () => {
    it('should close the upstream connections its providers hold', async () => {
      const upstream = await startChatUpstream();
      const handle = gateway({
        apiKeys: ['k'],
        logger: silentLogger,
        providers: { openai: { apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` } },
        models: [{ id: 'm', provider: 'openai' }],
      });
      const root = await listen(createServer(handle));
      const client = new OpenAI({ apiKey: 'k', baseURL: `${root}/v1`, maxRetries: 0 });
      await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      expect(upstream.sockets.size).toBe(1); // kept alive for the next call

      await handle.close();
      await expect.poll(() => upstream.sockets.size).toBe(0);
    });

    it('should close every provider once, used by a model or not, even when one fails to close', async () => {
      const closed: string[] = [];
      const closable = (id: string, fails = false): ProviderAdapter =>
        ({
          ...createMockProvider(),
          id,
          close: async () => {
            closed.push(id);
            if (fails) throw new Error('already closed');
          },
        }) as ProviderAdapter;
      const shared = closable('shared');
      const handle = gateway({
        logger: silentLogger,
        requireApiKey: false,
        providers: { a: shared, b: closable('broken', true), unused: closable('unused') },
        models: [
          { id: 'one', provider: 'a' },
          { id: 'two', provider: 'a' },
          { id: 'three', provider: 'b' },
        ],
      });
      await handle.close();
      expect(closed.sort()).toEqual(['broken', 'shared', 'unused']);
    });
  });
});
