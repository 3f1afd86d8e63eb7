import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';
import { DATABASE_URL } from '../helpers/test-database.js';

const scratch = useScratch();
const chat = { model: 'mock', messages: [{ role: 'user' as const, content: 'Hello there' }] };
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe('stored keys while PostgreSQL hangs', () => {
  it('should answer a key in use from its cache past keyCacheTtlMs, holding no request for the hung lookup', async () => {
    const { schema } = scratch.postgres();
    const target = new URL(DATABASE_URL);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 5432));
    scratch.later(() => relay.close());
    const viaRelay = new URL(DATABASE_URL);
    viaRelay.port = String(relay.port);
    const keyCacheTtlMs = 1_000;
    const running = await startGateway({
      models: [{ id: 'mock', provider: 'mock' }],
      database: { url: viaRelay.toString(), schema },
      keyCacheTtlMs,
      ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
    });
    scratch.later(() => running.close());
    scratch.later(() => running.gateway.close());
    await running.gateway.ready();
    const { key } = await running.gateway.keys!.create({ name: 'through a hung database' });
    const client = new OpenAI({ apiKey: key, baseURL: running.openAIBaseURL, maxRetries: 0 });
    await client.chat.completions.create(chat);
    const lookedUp = Date.now();

    // Every byte to and from PostgreSQL held from here: the database hangs, nothing is refused.
    relay.stall();
    try {
      // Past 80 % of the TTL: answered from the cache while the lookup ahead goes out (and hangs).
      await sleepUntil(lookedUp + keyCacheTtlMs * 0.85);
      expect((await client.chat.completions.create(chat)).object).toBe('chat.completion');
      // Past the TTL, that lookup still held: each request answered from the cache, none waiting
      // for the lookup (a request held for it would take its 250 ms wait).
      await sleepUntil(lookedUp + keyCacheTtlMs + 300);
      const took: number[] = [];
      for (let request = 0; request < 5; request++) {
        const started = performance.now();
        expect((await client.chat.completions.create(chat)).object).toBe('chat.completion');
        took.push(performance.now() - started);
      }
      expect(Math.max(...took)).toBeLessThan(200);
    } finally {
      relay.resume();
    }
  });
});
