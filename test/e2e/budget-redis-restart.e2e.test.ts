import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { maxCostOf } from '../../src/catalog/cost.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { inputTokenBound } from '../../src/usage/input-token-bound.js';
import { spentSince } from '../../src/usage/usage-queries.js';
import { useScratch } from '../helpers/scratch.js';
import { startRedisServer, type RedisServerProcess } from '../helpers/redis-server-process.js';
import { startGateway, type RunningGateway } from '../helpers/start-gateway.js';

/** $1 per million tokens either way: 1,000 nano-USD per token. */
const price = { input: 1, output: 1 };
const MAX_TOKENS = 40;
/** The gateway's bound of the requests' input: the upstream bills exactly that, and the whole output allowance. */
const INPUT_BOUND = inputTokenBound({
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
} as unknown as CanonicalRequest);
/** Each request costs exactly what it reserves: the budget holds ROOM of them, no more. */
const COST = maxCostOf(INPUT_BOUND, MAX_TOKENS, price);
const ROOM = 20;

/** A Chat upstream that holds the first `held` answers until `release()`, and answers the rest at once. */
interface GatedUpstream {
  url: string;
  /** Answers held so far. */
  readonly waiting: number;
  release(): void;
  close(): Promise<void>;
}

async function startGatedUpstream(held: number): Promise<GatedUpstream> {
  let gate!: () => void;
  const opened = new Promise<void>((resolve) => (gate = resolve));
  let waiting = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      if (waiting < held) {
        waiting += 1;
        await opened;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'up',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }],
          usage: { prompt_tokens: INPUT_BOUND, completion_tokens: MAX_TOKENS, total_tokens: INPUT_BOUND + MAX_TOKENS },
        }),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get waiting() {
      return waiting;
    },
    release: () => gate(),
    close: () =>
      new Promise((resolve) => {
        gate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const scratch = useScratch();
let redis: RedisServerProcess;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});

async function serve(options: GatewayOptions): Promise<RunningGateway> {
  const running = await startGateway(options);
  scratch.later(() => running.gateway.close());
  scratch.later(() => running.close());
  await running.gateway.ready();
  return running;
}

/** One Chat request: its status (0 when it got no answer). */
async function ask(running: RunningGateway, key: string): Promise<number> {
  try {
    const response = await fetch(`${running.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'priced', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'Hi' }] }),
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('budget counters in a Redis that restarts empty', () => {
  it('should keep counting the reservations still out, on every instance, after Redis restarts mid-load', async () => {
    const upstream = await startGatedUpstream(ROOM);
    scratch.later(() => upstream.close());
    const database = scratch.postgres();
    const shared: GatewayOptions = {
      database,
      redis: redis.url,
      redisPrefix: `test:${randomBytes(6).toString('hex')}:`,
      providers: { openai: { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` } },
      models: [{ id: 'priced', provider: 'openai', upstreamModel: 'up', price }],
    };
    const instances = [
      await serve({ ...shared, ledger: { outbox: scratch.file('outbox-a'), intervalMs: 5 } }),
      await serve({ ...shared, ledger: { outbox: scratch.file('outbox-b'), intervalMs: 5 } }),
    ];
    const { key, stored } = await instances[0]!.gateway.keys!.create({ name: 'budgeted', budget: { nanoUsd: COST * ROOM, period: 'day' } });

    // The whole budget reserved, half on each instance, and held out at the upstream.
    const first = Array.from({ length: ROOM }, (_, index) => ask(instances[index % 2]!, key));
    await until(() => upstream.waiting === ROOM, 'the first requests to reach the upstream');

    await redis.kill();
    await redis.restart();
    // Both instances answer from their counters again (not 503): the budget is spent, so each refuses.
    const answers: number[] = [];
    await until(async () => {
      const statuses = await Promise.all(instances.map((running) => ask(running, key)));
      answers.push(...statuses);
      return statuses.every((status) => status !== 503);
    }, 'both instances to count budgets again');
    const second = await Promise.all(Array.from({ length: ROOM }, (_, index) => ask(instances[index % 2]!, key)));

    upstream.release();
    expect(await Promise.all(first)).toEqual(Array.from({ length: ROOM }, () => 200));
    const admittedAfter = [...answers, ...second].filter((status) => status === 200).length;
    for (const running of instances) await running.gateway.close();
    const direct = await openDatabase({ ...database, migrate: false });
    const spent = await spentSince(direct.db, stored.publicId, 0).finally(() => direct.close());
    expect(spent).toBeLessThanOrEqual(COST * ROOM);
    expect(admittedAfter).toBe(0);
    expect([...answers, ...second].every((status) => status === 429 || status === 503)).toBe(true);
  });
});
