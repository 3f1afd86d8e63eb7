import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { LimitCheck, LimitStore } from '../../src/limits/limit-store.js';
import { MemoryLimitStore } from '../../src/limits/limit-store.js';
import { RedisLimitStore } from '../../src/limits/redis-limit-store.js';
import { batchScriptName } from '../../src/limits/redis-limit-scripts.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL);
afterAll(() => redis.disconnect());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rate = (key: string, limit: number, cost = 1): LimitCheck => ({ key, kind: 'rate', limit, periodMs: 60_000, cost, burst: limit });
const slots = (key: string, limit: number): LimitCheck => ({ key, kind: 'concurrency', limit, periodMs: 0, cost: 1, burst: limit });

const stores: Array<[string, () => LimitStore]> = [
  ['memory', () => new MemoryLimitStore()],
  // Each test its own key prefix, so runs never share counters.
  ['Redis', () => new RedisLimitStore(redis, `test:${randomBytes(6).toString('hex')}:`)],
];

describe.each(stores)('%s limit store', (_name, makeStore) => {
  it('takes every limit of a request or none of them', async () => {
    const store = makeStore();
    const checks = [rate('rpm', 5), slots('concurrent', 1)];
    expect(await store.acquire(checks, 'a', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 4 }, { remaining: 0 }] });
    // The slot is taken: refused by it, and the refused request spends none of the rate.
    expect(await store.acquire(checks, 'b', 60_000)).toMatchObject({ ok: false, refused: [1], retryAfterMs: 0 });
    expect(await store.acquire(checks, 'c', 60_000)).toMatchObject({ ok: false, refused: [1] });
    await store.finish([], ['concurrent'], 'a');
    expect(await store.acquire(checks, 'd', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 3 }, { remaining: 0 }] });
  });

  it('holds and gives back a slot under any lease id, quotes and non-ASCII included', async () => {
    const store = makeStore();
    const odd = 'lease "one" \\ é ✓';
    expect((await store.acquire([slots('s', 1)], odd, 60_000)).ok).toBe(true);
    expect((await store.acquire([slots('s', 1)], 'other', 60_000)).ok).toBe(false);
    await store.finish([], ['s'], odd);
    expect((await store.acquire([slots('s', 1)], 'other', 60_000)).ok).toBe(true);
  });

  it('refuses past the rate with the wait for the next unit, and names every refusing limit', async () => {
    const store = makeStore();
    for (let i = 0; i < 3; i += 1) expect((await store.acquire([rate('r', 3)], `r${i}`, 60_000)).ok).toBe(true);
    const refused = await store.acquire([rate('r', 3), rate('other', 10), slots('s', 5)], 'late', 60_000);
    expect(refused).toMatchObject({ ok: false, refused: [0] });
    const { retryAfterMs } = refused as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(19_000);
    expect(retryAfterMs).toBeLessThanOrEqual(20_000);
    // Nothing of the refused request was taken: the other limits are untouched.
    expect(await store.acquire([rate('other', 10), slots('s', 5)], 'next', 60_000)).toMatchObject({
      ok: true,
      readings: [{ remaining: 9 }, { remaining: 4 }],
    });
  });

  it('says a request costing more than the whole limit can never fit', async () => {
    const store = makeStore();
    expect(await store.acquire([rate('tpm', 100, 101)], 'big', 60_000)).toMatchObject({ ok: false, retryAfterMs: Infinity });
  });

  it('settles tokens: an over-estimate gives room back, an under-estimate takes more', async () => {
    const store = makeStore();
    expect(await store.acquire([rate('tpm', 1_000, 600)], 'a', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 400 }] });
    await store.finish([{ key: 'tpm', limit: 1_000, periodMs: 60_000, delta: -500 }], [], 'a');
    expect(await store.acquire([rate('tpm', 1_000, 1)], 'b', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 899 }] });
    await store.finish([{ key: 'tpm', limit: 1_000, periodMs: 60_000, delta: 850 }], [], 'b');
    expect(await store.acquire([rate('tpm', 1_000, 100)], 'c', 60_000)).toMatchObject({ ok: false, refused: [0] });
  });

  it('settles requests that ended and admits those asking when both arrive together, each with its own answer', async () => {
    const store = makeStore();
    const tpm = rate('tpm', 1_000, 300);
    expect((await store.acquire([tpm, slots('s', 1)], 'ended-1', 60_000)).ok).toBe(true);
    expect((await store.acquire([rate('tpm', 1_000, 200)], 'ended-2', 60_000)).ok).toBe(true);
    // Same turn: two requests end (one used 150.5 tokens fewer than reserved and gives its slot
    // back, the other 100 more), three ask — a Redis store sends them in one call.
    const ended = [
      store.finish([{ key: 'tpm', limit: 1_000, periodMs: 60_000, delta: -150.5 }], ['s'], 'ended-1'),
      store.finish([{ key: 'tpm', limit: 1_000, periodMs: 60_000, delta: 100 }], [], 'ended-2'),
    ];
    const asking = [
      store.acquire([rate('tpm', 1_000, 1), slots('s', 1)], 'ask-1', 60_000),
      store.acquire([slots('s', 1)], 'ask-2', 60_000),
      store.acquire([rate('tpm', 1_000, 600)], 'ask-3', 60_000),
    ];
    await Promise.all(ended);
    const [first, second, third] = await Promise.all(asking);
    // 1000 − 300 − 200 + 150.5 − 100 = 550.5 left (floored: 550); the first asker takes 1 and the freed slot.
    expect(first).toMatchObject({ ok: true, readings: [{ remaining: 549 }, { remaining: 0 }] });
    expect(second).toMatchObject({ ok: false, refused: [0] });
    expect(third).toMatchObject({ ok: false, refused: [0] });
  });

  it('counts a counter that many requests of one turn meet once for each of them, and keeps the count', async () => {
    const store = makeStore();
    const checks = [rate('rpm', 6), slots('s', 4)];
    // One turn: a Redis store sends the eight in one call, which reads each counter once.
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => store.acquire(checks, `r${index}`, 60_000)));
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true, false, false, false, false]);
    expect(results.slice(0, 4).map((result) => result.readings.map((reading) => reading.remaining))).toEqual([
      [5, 3],
      [4, 2],
      [3, 1],
      [2, 0],
    ]);
    expect(results[4]).toMatchObject({ refused: [1] });
    // What the call took is stored: the next call sees four of six requests and four slots taken.
    expect(await store.acquire([rate('rpm', 6)], 'later', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 1 }] });
    // Two slots given back and three asking in one turn: the two freed slots go to the first two.
    const ended = [store.finish([], ['s'], 'r0'), store.finish([], ['s'], 'r1')];
    const asking = await Promise.all(['a', 'b', 'c'].map((id) => store.acquire([slots('s', 4)], id, 60_000)));
    await Promise.all(ended);
    expect(asking.map((result) => result.ok)).toEqual([true, true, false]);
    expect(await store.acquire([slots('s', 4)], 'd', 60_000)).toMatchObject({ ok: false, refused: [0] });
  });

  it('checks each request against its own numbers when one counter’s limit changed between requests of one turn', async () => {
    const store = makeStore();
    // A key's limit raised from 2 to 1,000 a minute while requests under both were in flight: the
    // counter keeps what was used (half of the period), and each request is measured by its own limit.
    const [a, b, c] = await Promise.all([
      store.acquire([rate('rpm', 2)], 'a', 60_000),
      store.acquire([rate('rpm', 1_000)], 'b', 60_000),
      store.acquire([rate('rpm', 2)], 'c', 60_000),
    ]);
    expect([a, b, c].map((result) => result.ok)).toEqual([true, true, false]);
    expect(b!.readings[0]!.remaining).toBe(499);
    // Tokens settled under the old limit while a request under the new one asks, in one turn.
    await store.acquire([rate('tpm', 100, 100)], 'e', 60_000);
    const [, f] = await Promise.all([
      store.finish([{ key: 'tpm', limit: 100, periodMs: 60_000, delta: -50 }], [], 'e'),
      store.acquire([rate('tpm', 200, 10)], 'f', 60_000),
    ]);
    // 50 of 100 tokens a minute is half the period used; 10 more of 200 leave 90.
    expect(f).toMatchObject({ ok: true, readings: [{ remaining: 90 }] });
  });

  it('with a burst, lets that many through at once, then one per interval: at most limit + burst - 1 in a period', async () => {
    const store = makeStore();
    // 10 a second, 3 at once: one more every 100 ms.
    const check: LimitCheck = { key: 'bursty', kind: 'rate', limit: 10, periodMs: 1_000, cost: 1, burst: 3 };
    const startedAt = Date.now();
    const together = await Promise.all(Array.from({ length: 20 }, (_, index) => store.acquire([check], `t${index}`, 60_000)));
    expect(together.map((result) => result.ok)).toEqual([true, true, true, ...Array<boolean>(17).fill(false)]);
    expect(together[2]).toMatchObject({ readings: [{ remaining: 0 }] });
    const refused = together[3] as { retryAfterMs: number };
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(100);
    // Asking without pause for a period and a half: whatever the timing, the store let through no
    // more than the burst and one per 100 ms of the run (the store's clock runs within the run).
    let passed = 3;
    for (let index = 0; Date.now() - startedAt < 1_500; index += 1) {
      if ((await store.acquire([check], `s${index}`, 60_000)).ok) passed += 1;
      await sleep(5);
    }
    const ranMs = Date.now() - startedAt;
    expect(passed).toBeLessThanOrEqual(3 + Math.floor(ranMs / 100));
    expect(passed).toBeGreaterThanOrEqual(8);
  });

  it('with a burst of 1, lets one through at once and the next an interval later', async () => {
    const store = makeStore();
    const check: LimitCheck = { key: 'even', kind: 'rate', limit: 60, periodMs: 60_000, cost: 1, burst: 1 };
    const results = await Promise.all(['a', 'b', 'c'].map((id) => store.acquire([check], id, 60_000)));
    expect(results.map((result) => result.ok)).toEqual([true, false, false]);
    expect(results[0]).toMatchObject({ readings: [{ remaining: 0 }] });
    expect((results[1] as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(900);
    expect((results[1] as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(1_000);
    // Tokens: a request costing more than the burst can never fit.
    expect(
      await store.acquire([{ key: 'tpm', kind: 'rate', limit: 1_000, periodMs: 60_000, cost: 101, burst: 100 }], 'big', 60_000),
    ).toMatchObject({ ok: false, retryAfterMs: Infinity });
  });

  it('gives a slot back by itself when its lease runs out, unless the lease is renewed', async () => {
    const store = makeStore();
    const check = [slots('leased', 2)];
    expect((await store.acquire(check, 'kept', 400)).ok).toBe(true);
    expect((await store.acquire(check, 'dropped', 400)).ok).toBe(true);
    expect((await store.acquire(check, 'third', 400)).ok).toBe(false);
    await sleep(250);
    await store.renew([{ key: 'leased', leaseId: 'kept' }], 400);
    await sleep(250);
    // 'dropped' expired (its holder died); 'kept' was renewed and still holds its slot.
    expect(await store.acquire(check, 'fourth', 400)).toMatchObject({ ok: true, readings: [{ remaining: 0 }] });
    expect((await store.acquire(check, 'fifth', 400)).ok).toBe(false);
  });

  it('renews many leases of one counter in one call, and never takes back a slot given back', async () => {
    const store = makeStore();
    const check = [slots('many', 3)];
    for (const leaseId of ['a', 'b', 'c']) expect((await store.acquire(check, leaseId, 400)).ok).toBe(true);
    await store.finish([], ['many'], 'c');
    await sleep(250);
    await store.renew(
      ['a', 'b', 'c'].map((leaseId) => ({ key: 'many', leaseId })),
      400,
    );
    await sleep(250);
    // 'a' and 'b' were renewed and still hold their slots; 'c' was given back before and stays so.
    expect(await store.acquire(check, 'd', 400)).toMatchObject({ ok: true, readings: [{ remaining: 0 }] });
    expect((await store.acquire(check, 'e', 400)).ok).toBe(false);
  });
});

/** A store on its own connection whose script calls take 5 ms more (a busy or distant Redis), and the times they were made. */
function slowedStore(
  own: Redis,
  options?: ConstructorParameters<typeof RedisLimitStore>[2],
): {
  store: RedisLimitStore;
  calls: Array<{ requests: number; at: number; doneAt?: number }>;
  prefix: string;
} {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const store = new RedisLimitStore(own, prefix, options);
  const script = own as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const calls: Array<{ requests: number; at: number; doneAt?: number }> = [];
  const original = script[batchScriptName]!.bind(own);
  script[batchScriptName] = async (keyCount: unknown, ...rest: unknown[]) => {
    // After the keys and the numbers: the lease ids, one per request.
    const leaseIds = JSON.parse(String(rest[Number(keyCount) + 1])) as string[];
    const call: { requests: number; at: number; doneAt?: number } = { requests: leaseIds.length, at: performance.now() };
    calls.push(call);
    await sleep(5);
    const answer = await original(keyCount, ...rest);
    call.doneAt = performance.now();
    return answer;
  };
  return { store, calls, prefix };
}

describe('Redis limit store batching', () => {
  it('sends a give-back with the next request, in its call, ahead of it', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls } = slowedStore(own);
      expect((await store.acquire([slots('s', 1)], 'first', 60_000)).ok).toBe(true);
      const released = store.finish([], ['s'], 'first');
      await new Promise((resolve) => setImmediate(resolve));
      // The slot 'first' held is free for 'next': the call gives back before it admits.
      const next = store.acquire([slots('s', 1)], 'next', 60_000);
      const [, admitted] = await Promise.all([released, next]);
      expect(admitted.ok).toBe(true);
      expect(calls.map((call) => call.requests)).toEqual([1, 2]);
    } finally {
      own.disconnect();
    }
  });

  it('sends a give-back no request follows on its own, 10 ms later, for every instance to see', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls, prefix } = slowedStore(own);
      expect((await store.acquire([slots('s', 1)], 'first', 60_000)).ok).toBe(true);
      const endedAt = performance.now();
      await store.finish([], ['s'], 'first');
      expect(calls).toHaveLength(2);
      // It waited for a request to go with, not longer.
      expect(calls[1]!.at - endedAt).toBeGreaterThanOrEqual(9);
      expect(calls[1]!.at - endedAt).toBeLessThan(500);
      // Another instance on the same Redis finds the slot free.
      expect((await new RedisLimitStore(own, prefix).acquire([slots('s', 1)], 'elsewhere', 60_000)).ok).toBe(true);
    } finally {
      own.disconnect();
    }
  });

  it('waits `givebackWaitMs` for a request to go with, and takes the next request along if one comes', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls } = slowedStore(own, { givebackWaitMs: 1_000 });
      expect((await store.acquire([slots('s', 1)], 'first', 60_000)).ok).toBe(true);
      const endedAt = performance.now();
      const released = store.finish([], ['s'], 'first');
      // Past the default 10 ms, the give-back still waits.
      await sleep(60);
      expect(calls).toHaveLength(1);
      // A request that comes in the meantime takes it along: one call for both, the give-back first.
      const next = await store.acquire([slots('s', 1)], 'next', 60_000);
      await released;
      expect(next.ok).toBe(true);
      expect(calls.map((call) => call.requests)).toEqual([1, 2]);
      expect(calls[1]!.at - endedAt).toBeLessThan(1_000);
      // Alone, it goes once its own wait is over (the first give-back's timer went with it).
      const alone = performance.now();
      await store.finish([], ['s'], 'next');
      expect(calls).toHaveLength(3);
      expect(calls[2]!.at - alone).toBeGreaterThanOrEqual(995);
    } finally {
      own.disconnect();
    }
  });

  it('does not hold a request back behind a call that only gives slots back', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls } = slowedStore(own);
      expect((await store.acquire([slots('s', 1)], 'first', 60_000)).ok).toBe(true);
      const released = store.finish([], ['s'], 'first');
      while (calls.length < 2) await sleep(1);
      const next = store.acquire([rate('rpm', 10)], 'next', 60_000);
      await Promise.all([released, next]);
      // Sent while the give-back was still out, not after it came back.
      expect(calls.map((call) => call.requests)).toEqual([1, 1, 1]);
      expect(calls[2]!.at).toBeLessThan(calls[1]!.doneAt!);
    } finally {
      own.disconnect();
    }
  });

  it('settles the give-backs of one turn together, once every call they went in is answered', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls } = slowedStore(own);
      // 300 slots taken, then all given back in one turn: more than one call holds (256 requests).
      const taken = await Promise.all(Array.from({ length: 300 }, (_, index) => store.acquire([slots('s', 300)], `r${index}`, 60_000)));
      expect(taken.every((result) => result.ok)).toBe(true);
      const released = Array.from({ length: 300 }, (_, index) => store.finish([], ['s'], `r${index}`));
      expect(new Set(released).size).toBe(1);
      await released[0];
      // Both calls were answered before it settled: every slot is free again.
      expect(calls.slice(-2).map((call) => call.requests)).toEqual([256, 44]);
      expect(calls.slice(-2).every((call) => call.doneAt !== undefined)).toBe(true);
      const again = await Promise.all(Array.from({ length: 300 }, (_, index) => store.acquire([slots('s', 300)], `again${index}`, 60_000)));
      expect(again.every((result) => result.ok)).toBe(true);
      // The give-backs of a later turn have a promise of their own.
      const later = store.finish([], ['s'], 'again0');
      expect(later).not.toBe(released[0]);
      await later;
    } finally {
      own.disconnect();
    }
  });

  it('sends what arrives while a call is out in the next call, and each request gets its own answer', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const { store, calls } = slowedStore(own);
      // 40 requests, one per turn of the event loop: unbatched, 40 calls.
      const answers: Array<Promise<unknown>> = [];
      for (let index = 0; index < 40; index += 1) {
        answers.push(store.acquire([rate('rpm', 30)], `r${index}`, 60_000));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const results = (await Promise.all(answers)) as Array<{ ok: boolean }>;
      expect(results.filter((result) => result.ok)).toHaveLength(30);
      // In order: the first 30 admitted, the rest refused.
      expect(results.slice(0, 30).every((result) => result.ok)).toBe(true);
      expect(calls.length).toBeLessThanOrEqual(4);
      expect(calls.reduce((sum, call) => sum + call.requests, 0)).toBe(40);
    } finally {
      own.disconnect();
    }
  });
});

describe('Redis limit store deadline', () => {
  it('fails every request of a call Redis never answers once the timeout passes', async () => {
    // A server that accepts connections and never answers: ioredis holds the calls, waiting for it.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const own = new Redis((silent.address() as AddressInfo).port, '127.0.0.1', { maxRetriesPerRequest: null });
    own.on('error', () => undefined);
    try {
      const store = new RedisLimitStore(own, 'test:silent:', { timeoutMs: 150 });
      const startedAt = Date.now();
      const outcomes = await Promise.all([
        Promise.resolve(store.acquire([rate('rpm', 5)], 'a', 60_000)).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        Promise.resolve(store.acquire([rate('rpm', 5)], 'b', 60_000)).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        Promise.resolve(store.finish([], ['slots'], 'c')).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
        // The renewal of long requests' leases goes in the same call, held to the same deadline.
        Promise.resolve(store.renew([{ key: 'slots', leaseId: 'd' }], 60_000)).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
      ]);
      const tookMs = Date.now() - startedAt;
      expect(outcomes).toEqual(Array(4).fill('the limits store did not answer within 150 ms'));
      expect(tookMs).toBeGreaterThanOrEqual(140);
      expect(tookMs).toBeLessThan(1_000);
      // While that call is unanswered, a request or a renewal is told at once.
      const askedAt = Date.now();
      await expect(store.renew([{ key: 'slots', leaseId: 'e' }], 60_000)).rejects.toThrow('has not answered a call that timed out');
      await expect(store.acquire([rate('rpm', 5)], 'f', 60_000)).rejects.toThrow('has not answered a call that timed out');
      expect(Date.now() - askedAt).toBeLessThan(100);
    } finally {
      own.disconnect();
      silent.close();
    }
  });
});

describe('Redis limit store after a stall', () => {
  it('takes an answer that came in time, though the process was busy past the timeout when it came', async () => {
    await redis.ping(); // connected: the call goes out at once
    const store = new RedisLimitStore(redis, `test:${randomBytes(6).toString('hex')}:`, { timeoutMs: 100 });
    const asked = Promise.resolve(store.acquire([rate('rpm', 5)], 'a', 60_000));
    // The call goes out in an immediate; this one runs right after it and keeps the loop busy
    // (as a long GC or a synchronous step would) while Redis answers.
    const stalled = new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = Date.now() + 300;
        while (Date.now() < until);
        resolve();
      }),
    );
    await stalled;
    await expect(asked).resolves.toMatchObject({ ok: true, readings: [{ remaining: 4 }] });
  });
});

describe('Redis limit store across a lost connection', () => {
  it('gives back the slot of a request that ended while Redis was away once it answers again', async () => {
    const target = new URL(REDIS_URL);
    const relay = await startTcpRelay(target.hostname, Number(target.port || 6379));
    // ioredis drops what it holds after one failed reconnect: the give-back never reaches Redis.
    const own = new Redis(relay.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    own.on('error', () => undefined);
    try {
      const store = new RedisLimitStore(own, `test:${randomBytes(6).toString('hex')}:`, { timeoutMs: 2_000 });
      expect((await store.acquire([slots('s', 1)], 'a', 60_000)).ok).toBe(true);
      await relay.cut();
      await expect(Promise.resolve(store.finish([], ['s'], 'a'))).rejects.toThrow();
      await relay.restore();
      // Asking until Redis answers (while ioredis reconnects, a request is told at once).
      const startedAt = Date.now();
      let outcome: unknown;
      do {
        outcome = await Promise.resolve(store.acquire([slots('s', 1)], 'b', 60_000)).then(
          (result) => result.ok,
          (error: Error) => error.message,
        );
        if (outcome !== true) await sleep(50);
      } while (outcome !== true && Date.now() - startedAt < 10_000);
      // The slot 'a' held came back (not after its 60 s lease), and the limit holds: 'b' has it now.
      expect(outcome).toBe(true);
      expect(await store.acquire([slots('s', 1)], 'c', 60_000)).toMatchObject({ ok: false, refused: [0] });
    } finally {
      own.disconnect();
      await relay.close();
    }
  });
});

describe('Redis limit store when the client throws', () => {
  it('fails the call’s requests and sends its give-backs again with the next call', async () => {
    const own = new Redis(REDIS_URL);
    try {
      const store = new RedisLimitStore(own, `test:${randomBytes(6).toString('hex')}:`);
      const script = own as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      expect((await store.acquire([slots('s', 1)], 'a', 60_000)).ok).toBe(true);
      // The next call throws before it is sent (as ioredis does on arguments it cannot write).
      const original = script[batchScriptName]!;
      script[batchScriptName] = () => {
        script[batchScriptName] = original;
        throw new Error('cannot write the command');
      };
      const ended = Promise.resolve(store.finish([], ['s'], 'a'));
      const asked = Promise.resolve(store.acquire([slots('s', 1)], 'b', 60_000));
      await expect(ended).rejects.toThrow('cannot write the command');
      await expect(asked).rejects.toThrow('cannot write the command');
      // The slot 'a' held is given back with the next call, ahead of its request: not after its 60 s lease.
      expect(await store.acquire([slots('s', 1)], 'c', 60_000)).toMatchObject({ ok: true, readings: [{ remaining: 0 }] });
      expect((await store.acquire([slots('s', 1)], 'd', 60_000)).ok).toBe(false);
    } finally {
      own.disconnect();
    }
  });
});
