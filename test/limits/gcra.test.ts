import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gcra, gcraAdjust } from '../../src/limits/gcra.js';

/** Runs unit-cost requests at the given times against one limit; returns how many were allowed. */
function admitted(times: readonly number[], limit: number, periodMs: number): number {
  let tat: number | undefined;
  let allowed = 0;
  for (const at of times) {
    const outcome = gcra(tat, at, limit, periodMs, 1);
    if (outcome.allowed) {
      tat = outcome.tat;
      allowed += 1;
    }
  }
  return allowed;
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
      fc.property(fc.array(fc.integer({ min: 0, max: 180_000 }), { minLength: 1, maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (raw, limit) => {
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
      }),
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
});
