import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreDeadlines } from '../../src/limits/store-deadlines.js';

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/**
 * Moves the fake clock on by `ms`, then through the check phase that follows: a deadline that
 * passed gives its calls up there, after the loop has read what arrived (store-deadlines.ts).
 */
async function passTime(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await new Promise((resolve) => setImmediate(resolve));
}

/** Timers and the clock are fake; immediates stay real, so the check phase is the loop's own. */
const useFakeClock = () => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

/** What a promise came to, without waiting: 'pending' until it settled. */
function outcomeOf(promise: Promise<unknown>): () => string {
  let outcome = 'pending';
  promise.then(
    (value) => void (outcome = `resolved ${String(value)}`),
    (error: unknown) => void (outcome = `rejected ${(error as Error).message}`),
  );
  return () => outcome;
}

describe('StoreDeadlines', () => {
  beforeEach(useFakeClock);
  afterEach(() => void vi.useRealTimers());

  it('passes an answer that is not a promise straight through', () => {
    const deadlines = new StoreDeadlines(100);
    const answer = { ok: true };
    expect(deadlines.within(answer)).toBe(answer);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles as the store call does when it answers in time', async () => {
    const deadlines = new StoreDeadlines(100);
    const resolved = deferred<string>();
    const rejected = deferred<string>();
    const first = outcomeOf(deadlines.within(resolved.promise) as Promise<string>);
    const second = outcomeOf(deadlines.within(rejected.promise) as Promise<string>);
    resolved.resolve('yes');
    rejected.reject(new Error('store failed'));
    await passTime(0);
    expect(first()).toBe('resolved yes');
    expect(second()).toBe('rejected store failed');
    // Past the deadline nothing changes.
    await passTime(200);
    expect(first()).toBe('resolved yes');
    expect(second()).toBe('rejected store failed');
  });

  it('calls back exactly once: the answer in time, or the deadline and never the late answer', async () => {
    const deadlines = new StoreDeadlines(100);
    const seen: string[] = [];
    const inTime = deferred<string>();
    const late = deferred<string>();
    const failing = deferred<string>();
    deadlines.watch(
      inTime.promise,
      (value) => seen.push(`in time: ${value}`),
      (error) => seen.push(`in time failed: ${String(error)}`),
    );
    deadlines.watch(
      late.promise,
      (value) => seen.push(`late: ${value}`),
      (error) => seen.push(`late failed: ${(error as Error).message}`),
    );
    deadlines.watch(
      failing.promise,
      (value) => seen.push(`failing: ${value}`),
      (error) => seen.push(`failing failed: ${(error as Error).message}`),
    );
    inTime.resolve('yes');
    failing.reject(new Error('NOSCRIPT'));
    await passTime(150);
    late.resolve('too late');
    await passTime(0);
    expect(seen).toEqual(['in time: yes', 'failing failed: NOSCRIPT', 'late failed: the limits store did not answer within 100 ms']);
  });

  it('gives up each call at its own deadline, on one timer for all of them', async () => {
    const deadlines = new StoreDeadlines(100);
    const early = outcomeOf(deadlines.within(deferred().promise) as Promise<unknown>);
    const answered = deferred<string>();
    const inTime = outcomeOf(deadlines.within(answered.promise) as Promise<string>);
    await passTime(60);
    const late = outcomeOf(deadlines.within(deferred().promise) as Promise<unknown>);
    for (let index = 0; index < 50; index++) deadlines.within(Promise.resolve(index));
    expect(vi.getTimerCount()).toBe(1);
    answered.resolve('yes');
    await passTime(39);
    expect(early()).toBe('pending');
    await passTime(1);
    expect(early()).toBe('rejected the limits store did not answer within 100 ms');
    expect(inTime()).toBe('resolved yes');
    // The call made 60 ms later still has its whole 100 ms.
    expect(late()).toBe('pending');
    await passTime(59);
    expect(late()).toBe('pending');
    await passTime(1);
    expect(late()).toBe('rejected the limits store did not answer within 100 ms');
    // Nothing is left out: no timer stays behind.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps only the calls still out when calls settle in order, not every call of the last deadline', async () => {
    const deadlines = new StoreDeadlines(1_000);
    for (let index = 0; index < 10_000; index++) await deadlines.within(Promise.resolve(index));
    expect(deadlines.queued).toBeLessThanOrEqual(1);
    // One call that hangs holds the ones behind it until its deadline passes, then none remain.
    const hanging = outcomeOf(deadlines.within(deferred().promise) as Promise<unknown>);
    for (let index = 0; index < 100; index++) await deadlines.within(Promise.resolve(index));
    expect(deadlines.queued).toBe(101);
    await passTime(1_000);
    expect(hanging()).toBe('rejected the limits store did not answer within 1000 ms');
    expect(deadlines.queued).toBe(0);
  });

  it('keeps working after every call settled and the timer stopped', async () => {
    const deadlines = new StoreDeadlines(50);
    await deadlines.within(Promise.resolve(1));
    await passTime(50);
    expect(vi.getTimerCount()).toBe(0);
    const next = outcomeOf(deadlines.within(deferred().promise) as Promise<unknown>);
    await passTime(50);
    expect(next()).toBe('rejected the limits store did not answer within 50 ms');
  });
});

describe('StoreDeadlines with a deadline longer than a Node timer takes', () => {
  it('waits for it in steps instead of firing at once', async () => {
    useFakeClock();
    try {
      const deadlines = new StoreDeadlines(3_000_000_000);
      const call = outcomeOf(deadlines.within(deferred().promise) as Promise<unknown>);
      await passTime(2_147_483_647);
      expect(call()).toBe('pending');
      expect(vi.getTimerCount()).toBe(1);
      await passTime(3_000_000_000 - 2_147_483_647);
      expect(call()).toBe('rejected the limits store did not answer within 3000000000 ms');
    } finally {
      vi.useRealTimers();
    }
  });
});
