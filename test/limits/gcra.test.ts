import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gcra, gcraAdjust } from '../../src/limits/gcra.js';

/** Runs unit-cost requests at the given times against one limit; returns how many were allowed. */
function admitted(times: readonly number[], limit: number, periodMs: number): number {
  return passedAt(times, limit, periodMs).length;
}

/** The times, of those given, at which a unit-cost request passed. */
function passedAt(times: readonly number[], limit: number, periodMs: number, burst?: number): number[] {
  let tat: number | undefined;
  const passed: number[] = [];
  for (const at of times) {
    const outcome = gcra(tat, at, limit, periodMs, 1, burst);
    if (outcome.allowed) {
      tat = outcome.tat;
      passed.push(at);
    }
  }
  return passed;
}

/** The most of `times` (sorted) within any window [t, t + windowMs). */
function mostInAnyWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j += 1) {
    while (times[j]! - times[i]! >= windowMs) i += 1;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

describe('gcra', () => {
  it('lets an idle caller spend the whole allowance at once, then refuses with the wait for one more', () => {
    let tat: number | undefined;
    for (let i = 0; i < 10; i += 1) {
      const outcome = gcra(tat, 1_000, 10, 60_000, 1);
      expect(outcome.allowed).toBe(true);
      expect(outcome.remaining).toBe(9 - i);
      tat = outcome.tat;
    }
    const refused = gcra(tat, 1_000, 10, 60_000, 1);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.retryAfterMs).toBe(6_000);
    expect(refused.resetMs).toBe(60_000);
    expect(gcra(tat, 7_000, 10, 60_000, 1).allowed).toBe(true);
  });

  it('never lets more than the limit plus what refilled through any window, even across window edges', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 180_000 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (raw, limit) => {
          const times = [...raw].sort((a, b) => a - b);
          const periodMs = 60_000;
          // In any span of length d, at most limit + d / interval requests pass.
          let tat: number | undefined;
          const passed: number[] = [];
          for (const at of times) {
            const outcome = gcra(tat, at, limit, periodMs, 1);
            if (outcome.allowed) {
              tat = outcome.tat;
              passed.push(at);
            }
          }
          for (let i = 0; i < passed.length; i += 1) {
            for (let j = i; j < passed.length; j += 1) {
              expect(j - i + 1).toBeLessThanOrEqual(limit + Math.floor((passed[j]! - passed[i]!) / (periodMs / limit)));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('lets a steady caller at the limit through, and no faster one', () => {
    const steady = Array.from({ length: 120 }, (_, i) => i * 1_000);
    expect(admitted(steady, 60, 60_000)).toBe(120);
    const faster = Array.from({ length: 240 }, (_, i) => i * 500);
    // The full allowance, then one a second up to the last request at 119.5 s: never the 240 asked for.
    expect(admitted(faster, 60, 60_000)).toBe(60 + 119);
  });

  it('can never admit a request that costs more than the whole limit', () => {
    expect(gcra(undefined, 0, 1_000, 60_000, 1_001)).toMatchObject({ allowed: false, retryAfterMs: Infinity });
  });

  it('settles: tokens used beyond the reservation push the next request back, tokens unused give room back, never past full', () => {
    const first = gcra(undefined, 0, 600, 60_000, 300);
    expect(first.remaining).toBe(300);
    const overspent = gcraAdjust(first.tat, 0, 600, 60_000, 200);
    expect(gcra(overspent, 0, 600, 60_000, 1).remaining).toBe(99);
    const refunded = gcraAdjust(first.tat, 0, 600, 60_000, -1_000);
    expect(refunded).toBe(0);
    expect(gcra(refunded, 0, 600, 60_000, 1).remaining).toBe(599);
  });

  it('with a burst, never lets more than limit + burst - 1 through in any window of one period', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 180_000 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 50 }),
        (raw, limit, rawBurst) => {
          const burst = Math.min(rawBurst, limit);
          const passed = passedAt(
            [...raw].sort((a, b) => a - b),
            limit,
            60_000,
            burst,
          );
          expect(mostInAnyWindow(passed, 60_000)).toBeLessThanOrEqual(limit + burst - 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reaches that bound for a caller asking all the time: burst 1 is at most the limit in any minute', () => {
    // A request every 100 ms for three minutes, against 50 per minute.
    const asking = Array.from({ length: 1_800 }, (_, i) => i * 100);
    const cases: Array<[burst: number | undefined, most: number]> = [
      [1, 50],
      [10, 59],
      // The default: the whole allowance at once, then one every 1.2 s.
      [undefined, 99],
    ];
    for (const [burst, most] of cases) {
      const passed = passedAt(asking, 50, 60_000, burst);
      expect(mostInAnyWindow(passed, 60_000), `burst ${burst}`).toBe(most);
      // Whatever the burst, the steady rate is the limit: 50 a minute over the three minutes, plus what the burst let through at first.
      expect(passed.length, `burst ${burst}`).toBe(150 + (burst ?? 50) - 1);
    }
  });

  it('with a burst of 1, spaces requests evenly from the first, and says when the next fits', () => {
    const first = gcra(undefined, 0, 60, 60_000, 1, 1);
    expect(first).toMatchObject({ allowed: true, remaining: 0, resetMs: 1_000 });
    const second = gcra(first.tat, 400, 60, 60_000, 1, 1);
    expect(second).toMatchObject({ allowed: false, retryAfterMs: 600 });
    expect(gcra(first.tat, 1_000, 60, 60_000, 1, 1).allowed).toBe(true);
  });

  it('can never admit a request that costs more than its burst', () => {
    expect(gcra(undefined, 0, 1_000, 60_000, 101, 100)).toMatchObject({ allowed: false, retryAfterMs: Infinity });
    expect(gcra(undefined, 0, 1_000, 60_000, 100, 100)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
