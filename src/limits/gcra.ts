/**
 * GCRA (the generic cell rate algorithm), the rate limit without window edges: a limit of `limit`
 * units per `periodMs` is a "theoretical arrival time" (TAT) that each unit moves `periodMs / limit`
 * ms ahead. A request fits while the TAT stays within one period of now, so an idle caller may
 * spend a whole period's allowance at once and then one unit per interval, never two allowances
 * across a window edge. The Redis script (redis-limit-store.ts) computes the same, in Lua.
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

export function gcra(storedTat: number | undefined, now: number, limit: number, periodMs: number, cost: number): GcraOutcome {
  const interval = periodMs / limit;
  const base = storedTat === undefined || storedTat < now ? now : storedTat;
  const tat = base + cost * interval;
  if (tat - now <= periodMs) {
    return { allowed: true, tat, remaining: Math.floor((periodMs - (tat - now)) / interval), resetMs: tat - now, retryAfterMs: 0 };
  }
  return {
    allowed: false,
    tat: base,
    remaining: Math.max(0, Math.floor((periodMs - (base - now)) / interval)),
    resetMs: base - now,
    retryAfterMs: cost > limit ? Infinity : tat - periodMs - now,
  };
}

/** The TAT after `delta` units are added (a request used more than it reserved) or given back (less); never before now. */
export function gcraAdjust(storedTat: number | undefined, now: number, limit: number, periodMs: number, delta: number): number {
  const base = storedTat === undefined || storedTat < now ? now : storedTat;
  return Math.max(now, base + delta * (periodMs / limit));
}
