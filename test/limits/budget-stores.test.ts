import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryBudgetStore, type BudgetAccount, type BudgetStore, type Hold, type Reservation } from '../../src/limits/budget-store.js';
import { RedisBudgetStore } from '../../src/limits/redis-budget-store.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL);
afterAll(() => redis.quit());

const account = (limitNanoUsd: number, spent = 0): BudgetAccount => ({
  keyId: `key-${randomBytes(4).toString('hex')}`,
  periodStart: 0,
  periodEnd: undefined,
  limitNanoUsd,
  spentInLedger: () => Promise.resolve(spent),
});

const holdOf = (reservation: Reservation): Hold => {
  if (!reservation.ok) throw new Error(`refused at ${reservation.spentNanoUsd}`);
  return reservation.hold;
};

/** Settles are not awaited: the next reservation reads what they left once they ran (Redis runs calls in order). */
const stores: Array<[string, () => BudgetStore]> = [
  ['memory', () => new MemoryBudgetStore()],
  [
    'Redis',
    () =>
      new RedisBudgetStore(redis, `test:${randomBytes(6).toString('hex')}:`, (error) => {
        throw error;
      }),
  ],
];

describe.each(stores)('budget store rules (%s)', (_name, createStore) => {
  it('should let in a reservation that does not fit only when it may run alone and something is left', async () => {
    const store = createStore();
    const budget = account(100, 40);
    expect((await store.reserve(budget, 70, 'fit')).ok).toBe(false);
    const alone = holdOf(await store.reserve(budget, 70, 'fit-or-alone'));
    // Out alone and past the limit: nothing else gets in, whatever its rule.
    expect(await store.reserve(budget, 1, 'fit')).toEqual({ ok: false, spentNanoUsd: 40, heldNanoUsd: 70 });
    expect((await store.reserve(budget, 70, 'fit-or-alone')).ok).toBe(false);
    store.settle(budget, alone, 55);
    // 95 spent: something left, nothing out.
    expect((await store.reserve(budget, 1_000, 'alone')).ok).toBe(true);
  });

  it("should let in an 'alone' reservation only while no other is out, even when it fits", async () => {
    const store = createStore();
    const budget = account(1_000);
    const first = holdOf(await store.reserve(budget, 10, 'fit'));
    expect((await store.reserve(budget, 10, 'alone')).ok).toBe(false);
    // A fitting reservation still gets in beside an 'alone' one: its cost is a true bound.
    store.settle(budget, first, 10);
    const alone = holdOf(await store.reserve(budget, 10, 'alone'));
    expect((await store.reserve(budget, 10, 'fit')).ok).toBe(true);
    store.settle(budget, alone, 500);
    expect(await store.reserve(budget, 500, 'fit')).toEqual({ ok: false, spentNanoUsd: 510, heldNanoUsd: 10 });
  });

  it('should refuse a reservation of any rule once nothing is left', async () => {
    const store = createStore();
    const budget = account(100, 100);
    for (const rule of ['fit', 'fit-or-alone', 'alone'] as const)
      expect(await store.reserve(budget, 1, rule)).toEqual({ ok: false, spentNanoUsd: 100, heldNanoUsd: 0 });
  });
});
