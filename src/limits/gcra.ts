/**
 * GCRA (the generic cell rate algorithm), the rate limit without window edges: a limit of `limit`
 * units per `periodMs` is a "theoretical arrival time" (TAT) that each unit moves `periodMs / limit`
 * ms ahead. A request fits while the TAT stays within `burst` intervals of now (by default the
 * whole period), so an idle caller may spend `burst` units at once and then one unit per interval:
 * in any window of one period, fewer than `limit + burst` units pass (at most `limit + burst - 1`
 * requests of one unit). The Redis script (redis-limit-scripts.ts) computes the same, in Lua.
 */
export interface GcraOutcome {
  allowed: boolean;
  /** The TAT to store when allowed. */
  tat: number;
  /** Units still admittable at once after this request (when refused: before it). */
  remaining: number;
  /** Milliseconds until the limit is full again. */
  resetMs: number;
  /** When refused: milliseconds until this request would fit; Infinity when it never can (it costs more than the whole limit). */
  retryAfterMs: number;
}

/** `burst`: the units an idle caller may spend at once, at most `limit` (the default). */
export function gcra(
  storedTat: number | undefined,
  now: number,
  limit: number,
  periodMs: number,
  cost: number,
  burst = limit,
): GcraOutcome {
  const interval = periodMs / limit;
  // The product first: with the default burst this is exactly the period (the integers are exact).
  const tolerance = (periodMs * burst) / limit;
  const base = storedTat === undefined || storedTat < now ? now : storedTat;
  const tat = base + cost * interval;
  if (tat - now <= tolerance) {
    return { allowed: true, tat, remaining: Math.floor((tolerance - (tat - now)) / interval), resetMs: tat - now, retryAfterMs: 0 };
  }
  return {
    allowed: false,
    tat: base,
    remaining: Math.max(0, Math.floor((tolerance - (base - now)) / interval)),
    resetMs: base - now,
    retryAfterMs: cost > burst ? Infinity : tat - tolerance - now,
  };
}

/** The TAT after `delta` units are added (a request used more than it reserved) or given back (less); never before now. */
export function gcraAdjust(storedTat: number | undefined, now: number, limit: number, periodMs: number, delta: number): number {
  const base = storedTat === undefined || storedTat < now ? now : storedTat;
  return Math.max(now, base + delta * (periodMs / limit));
}
