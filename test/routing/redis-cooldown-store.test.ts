import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_COOLDOWNS, type ResolvedCooldowns } from '../../src/routing/cooldown.js';
import { RedisCooldownStore } from '../../src/routing/redis-cooldown-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two instances' stores on one Redis prefix (each its own connection), with a clock the test moves, counting their standings reads. */
function instances(options: Partial<ResolvedCooldowns>) {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const clock = { now: Date.now() };
  const make = () => {
    const client = new Redis(REDIS_URL);
    clients.push(client);
    const store = new RedisCooldownStore(client, prefix, { ...DEFAULT_COOLDOWNS, ...options }, () => clock.now);
    const script = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = script.switchyardCooldownStandings_v1!.bind(client);
    const counted = { reads: 0 };
    script.switchyardCooldownStandings_v1 = (...args: unknown[]) => {
      counted.reads += 1;
      return original(...args);
    };
    return { store, counted };
  };
  return { a: make(), b: make(), clock };
}

const pair = ['east', 'west'];

describe('Redis cooldown store', () => {
  it('answers from what it read, without a Redis call, until refreshMs has passed', async () => {
    const { a, clock } = instances({ refreshMs: 1_000 });
    expect(await a.store.standings(pair)).toEqual(new Map());
    expect(a.counted.reads).toBe(1);
    clock.now += 999;
    const known = a.store.standings(pair);
    expect(known).not.toBeInstanceOf(Promise);
    expect(known).toEqual(new Map());
    expect(a.counted.reads).toBe(1);
    clock.now += 1;
    expect(await a.store.standings(pair)).toEqual(new Map());
    expect(a.counted.reads).toBe(2);
  });

  it('sees a deployment another instance took out once refreshMs has passed, and its own at once', async () => {
    const { a, b, clock } = instances({ failures: 1, cooldownMs: 60_000, refreshMs: 1_000 });
    await a.store.standings(pair);
    await b.store.standings(pair);
    expect(await a.store.failed('east')).toBe(60_000);
    // A knows at once, from its own failure; B still goes on what it read.
    expect(a.store.standings(pair)).toEqual(new Map([['east', { state: 'cooling', forMs: 60_000 }]]));
    expect(b.store.standings(pair)).toEqual(new Map());
    clock.now += 1_000;
    const read = await b.store.standings(pair);
    expect(read.get('east')).toMatchObject({ state: 'cooling' });
    expect(b.counted.reads).toBe(2);
  });

  it('reads again at once when a cooldown it knows of runs out, and only one instance gets the trial', async () => {
    const { a, b, clock } = instances({ failures: 1, cooldownMs: 150, refreshMs: 60_000 });
    await b.store.standings(pair);
    expect(await a.store.failed('east')).toBe(150);
    await sleep(200);
    clock.now += 200;
    // A's cooldown ended by its own clock: it reads Redis and claims the trial.
    const first = await a.store.standings(pair);
    expect(first.get('east')).toEqual({ state: 'trial' });
    expect(a.counted.reads).toBe(1);
    // B read before the failure and trusts that for a minute: east is in service to it; read afresh, the trial is out.
    expect(b.store.standings(pair)).toEqual(new Map());
    clock.now += 60_000;
    const second = await b.store.standings(pair);
    expect(second.get('east')).toMatchObject({ state: 'cooling' });
    // A's trial answered: back in service for A at once (no read), and in Redis for everyone.
    await a.store.recovered('east');
    expect(a.store.standings(['east'])).toEqual(new Map());
    clock.now += 60_000;
    expect(await b.store.standings(pair)).toEqual(new Map());
  });

  it('reads Redis on every request with refreshMs 0', async () => {
    const { a } = instances({ refreshMs: 0 });
    for (let index = 0; index < 3; index += 1) expect(await a.store.standings(pair)).toEqual(new Map());
    expect(a.counted.reads).toBe(3);
  });
});
