import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../src/access/key-cache.js';
import type { KeyLookup, StoredKey } from '../../src/access/stored-keys.js';

const key = (publicId: string): StoredKey => ({
  publicId,
  name: publicId,
  createdAt: 0,
  lastUsedAt: undefined,
  expiresAt: undefined,
  revokedAt: undefined,
  models: undefined,
  budget: undefined,
  limits: undefined,
});
const found = (publicId: string): KeyLookup => ({ ok: true, key: key(publicId) });

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('KeyCache', () => {
  it('should answer a fresh entry synchronously, without a lookup', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, now: time.now });
    let lookups = 0;
    const find = async () => {
      lookups += 1;
      return found('a');
    };
    expect(await cache.lookup('digest-a', find)).toEqual(found('a'));
    time.advance(3_999);
    expect(cache.lookup('digest-a', find)).toEqual(found('a'));
    expect(lookups).toBe(1);
  });

  it('should look a key in use up again in the background from 80 % of the TTL, answering from the cache meanwhile', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    time.advance(4_000);
    let lookups = 0;
    let release: (lookup: KeyLookup) => void = () => undefined;
    const find = () => {
      lookups += 1;
      return new Promise<KeyLookup>((resolve) => (release = resolve));
    };
    // Answered at once from the cache, each time; one lookup sent for them all.
    expect(cache.lookup('digest-a', find)).toEqual(found('a'));
    time.advance(500);
    expect(cache.lookup('digest-a', find)).toEqual(found('a'));
    expect(lookups).toBe(1);
    // Revoked meanwhile: the lookup's answer serves the next request, before the old entry's TTL.
    release({ ok: false, reason: 'revoked' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.lookup('digest-a', find)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('should answer at once past the TTL when the lookup sent ahead of it is older than refreshWaitMs, as while the database is stalled', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, refreshWaitMs: 250, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    time.advance(4_500);
    let lookups = 0;
    const stalled = () => {
      lookups += 1;
      return new Promise<KeyLookup>(() => undefined);
    };
    expect(cache.lookup('digest-a', stalled)).toEqual(found('a'));
    time.advance(1_000);
    expect(cache.lookup('digest-a', stalled)).toEqual(found('a'));
    expect(lookups).toBe(1);
  });

  it('should refresh an entry older than the TTL before answering, so a key revoked meanwhile is refused on the next request', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, now: time.now });
    const answers: KeyLookup[] = [found('a'), { ok: false, reason: 'revoked' }];
    let lookups = 0;
    const find = async () => {
      lookups += 1;
      return answers.shift() ?? found('never');
    };
    await cache.lookup('digest-a', find);
    time.advance(5_000);
    expect(await cache.lookup('digest-a', find)).toEqual({ ok: false, reason: 'revoked' });
    expect(lookups).toBe(2);
  });

  it('should answer from the cache when the refresh takes longer than refreshWaitMs, and use the refresh once it came', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, refreshWaitMs: 20, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    time.advance(5_000);
    let release: (lookup: KeyLookup) => void = () => undefined;
    const stalled = () => new Promise<KeyLookup>((resolve) => (release = resolve));
    // Not held longer than the wait: the old answer.
    expect(await cache.lookup('digest-a', stalled)).toEqual(found('a'));
    release({ ok: false, reason: 'revoked' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.lookup('digest-a', stalled)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('should hold requests for a stalled refresh only until refreshWaitMs after it was sent, not each request in turn', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10, refreshWaitMs: 20, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    time.advance(5_000);
    let lookups = 0;
    let release: (lookup: KeyLookup) => void = () => undefined;
    const stalled = () => {
      lookups += 1;
      return new Promise<KeyLookup>((resolve) => (release = resolve));
    };
    // Within the wait: held for the refresh, then given the old answer.
    const first = cache.lookup('digest-a', stalled);
    expect(first).toBeInstanceOf(Promise);
    time.advance(10);
    expect(cache.lookup('digest-a', stalled)).toBeInstanceOf(Promise);
    expect(await first).toEqual(found('a'));
    // Past it, while the database still holds the refresh: the old answer at once.
    time.advance(10);
    expect(cache.lookup('digest-a', stalled)).toEqual(found('a'));
    time.advance(1_000);
    expect(cache.lookup('digest-a', stalled)).toEqual(found('a'));
    expect(lookups).toBe(1);
    // The refresh comes back: its answer holds from then on.
    release({ ok: false, reason: 'revoked' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.lookup('digest-a', stalled)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('should make one lookup for a burst of requests bringing a key not seen yet', async () => {
    const cache = new KeyCache({ ttlMs: 5_000, staleMs: 60_000, maxEntries: 10 });
    let lookups = 0;
    const find = async () => {
      lookups += 1;
      return found('a');
    };
    const burst = await Promise.all([cache.lookup('digest-a', find), cache.lookup('digest-a', find), cache.lookup('digest-a', find)]);
    expect(burst).toEqual([found('a'), found('a'), found('a')]);
    expect(lookups).toBe(1);
  });

  it('should make one lookup for a burst of requests refreshing the same key', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 10, staleMs: 60_000, maxEntries: 10, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    time.advance(10);
    let lookups = 0;
    let release: (lookup: KeyLookup) => void = () => undefined;
    const find = () => {
      lookups += 1;
      return new Promise<KeyLookup>((resolve) => (release = resolve));
    };
    const burst = [cache.lookup('digest-a', find), cache.lookup('digest-a', find), cache.lookup('digest-a', find)];
    release(found('a'));
    expect(await Promise.all(burst)).toEqual([found('a'), found('a'), found('a')]);
    expect(lookups).toBe(1);
  });

  it('should keep a good key working from its last answer while the database fails, up to staleMs', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 1_000, staleMs: 10_000, maxEntries: 10, now: time.now });
    await cache.lookup('digest-a', async () => found('a'));
    const failing = async (): Promise<KeyLookup> => {
      throw new Error('connection refused');
    };
    time.advance(5_000);
    expect(await cache.lookup('digest-a', failing)).toEqual(found('a'));
    time.advance(5_000);
    await expect(cache.lookup('digest-a', failing)).rejects.toThrow('connection refused');
  });

  it('should keep refusing a refused key while the database fails', async () => {
    const time = clock();
    const cache = new KeyCache({ ttlMs: 1_000, staleMs: 10_000, maxEntries: 10, now: time.now });
    await cache.lookup('digest-a', async () => ({ ok: false, reason: 'revoked' }));
    time.advance(20_000);
    expect(await cache.lookup('digest-a', async () => Promise.reject(new Error('down')))).toEqual({ ok: false, reason: 'revoked' });
  });

  it('should fail a request for a key never seen while the database fails', async () => {
    const cache = new KeyCache({ ttlMs: 1_000, staleMs: 10_000, maxEntries: 10 });
    await expect(cache.lookup('digest-a', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
  });

  it('should forget every answer about a revoked key at once', async () => {
    const cache = new KeyCache({ ttlMs: 60_000, staleMs: 60_000, maxEntries: 10 });
    await cache.lookup('digest-a', async () => found('a'));
    await cache.lookup('digest-b', async () => found('b'));
    cache.forget('a');
    expect(cache.size).toBe(1);
    expect(await cache.lookup('digest-a', async () => ({ ok: false, reason: 'revoked' }))).toEqual({ ok: false, reason: 'revoked' });
  });

  it('should keep a real key however many keys that do not exist are looked up after it', async () => {
    const cache = new KeyCache({ ttlMs: 1_000, staleMs: 60_000, maxEntries: 2 });
    await cache.lookup('digest-real', async () => found('real'));
    // Forged keys: the right shape and checksum, found nowhere.
    for (let index = 0; index < 50; index++) await cache.lookup(`digest-forged-${index}`, async () => ({ ok: false, reason: 'unknown' }));
    expect(cache.size).toBe(1);
    // The database goes away: the real key still works from the cache, the forged ones do not.
    const down = async (): Promise<KeyLookup> => Promise.reject(new Error('down'));
    expect(await cache.lookup('digest-real', down)).toEqual(found('real'));
    await expect(cache.lookup('digest-forged-0', down)).rejects.toThrow('down');
  });

  it('should drop the oldest entry beyond maxEntries', async () => {
    const cache = new KeyCache({ ttlMs: 60_000, staleMs: 60_000, maxEntries: 2 });
    for (const id of ['a', 'b', 'c']) await cache.lookup(`digest-${id}`, async () => found(id));
    expect(cache.size).toBe(2);
    let looked = false;
    await cache.lookup('digest-a', async () => {
      looked = true;
      return found('a');
    });
    expect(looked).toBe(true);
  });
});
