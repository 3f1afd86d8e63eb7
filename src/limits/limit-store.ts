import { gcra, gcraAdjust } from './gcra.js';

/** One limit a request is checked against: a rate (GCRA) or a number of concurrent requests (leases). */
export interface LimitCheck {
  /** The counter's name, unique per limit (e.g. `key:<id>:rpm`). */
  readonly key: string;
  readonly kind: 'rate' | 'concurrency';
  /** Units per period (rate) or requests at once (concurrency). */
  readonly limit: number;
  /** Rate only: the period the limit is per, in ms. */
  readonly periodMs: number;
  /** Rate only: the units this request takes (1 for requests, its token estimate for tokens). */
  readonly cost: number;
  /** Rate only: the units an idle caller may spend at once, 1 to `limit` (the whole period's allowance). */
  readonly burst: number;
}

/** Where a limit stands after the check: how many more fit now, and (rates) when it is full again. */
export interface LimitReading {
  readonly remaining: number;
  readonly resetMs: number;
}

export type AcquireResult =
  | { readonly ok: true; readonly readings: readonly LimitReading[] }
  /**
   * `refused`: the indexes of the checks that refused it; `retryAfterMs`: when every refusing rate
   * would let it in (0 when only concurrency refused; Infinity when it can never fit).
   */
  | { readonly ok: false; readonly refused: readonly number[]; readonly retryAfterMs: number; readonly readings: readonly LimitReading[] };

/** A rate counter to move after the call: tokens used beyond (or short of) what was reserved. */
export interface RateAdjustment {
  readonly key: string;
  readonly limit: number;
  readonly periodMs: number;
  readonly delta: number;
}

/**
 * Where limits are counted: in this process, or in Redis for every instance. `acquire` checks every
 * limit of a request and takes them all, or none (a refused request holds nothing); a
 * concurrency slot is a lease that expires by itself after `leaseMs` unless renewed, so a process
 * that dies holding slots gives them back. A store that answers through the network never leaves a
 * call hanging: past its own timeout the call rejects, and the stage counts the store as down.
 */
export interface LimitStore {
  acquire(checks: readonly LimitCheck[], leaseId: string, leaseMs: number): AcquireResult | Promise<AcquireResult>;
  /** Moves token counters by what was really used, and gives the request's slots back. */
  finish(adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string): void | Promise<void>;
  /** Extends held leases by `leaseMs` from now (long streams). */
  renew(leases: ReadonlyArray<{ key: string; leaseId: string }>, leaseMs: number): void | Promise<void>;
  close?(): Promise<void>;
}

/** Limits counted in this process: the default, for one instance. */
export class MemoryLimitStore implements LimitStore {
  readonly #tats = new Map<string, number>();
  readonly #leases = new Map<string, Map<string, number>>();
  readonly #tatScratch: number[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  acquire(checks: readonly LimitCheck[], leaseId: string, leaseMs: number): AcquireResult {
    const now = this.#now();
    const readings: LimitReading[] = [];
    // Reused: acquire is synchronous, and most requests are admitted (nothing refused to list).
    const tats = this.#tatScratch;
    let refused: number[] | undefined;
    let retryAfterMs = 0;
    for (let index = 0; index < checks.length; index += 1) {
      const check = checks[index]!;
      if (check.kind === 'rate') {
        const outcome = gcra(this.#tats.get(check.key), now, check.limit, check.periodMs, check.cost, check.burst);
        readings.push({ remaining: outcome.remaining, resetMs: outcome.resetMs });
        tats[index] = outcome.tat;
        if (!outcome.allowed) {
          (refused ??= []).push(index);
          retryAfterMs = Math.max(retryAfterMs, outcome.retryAfterMs);
        }
      } else {
        // Expired leases matter only to a full limit: dropped then, not on every request.
        let size = this.#leases.get(check.key)?.size ?? 0;
        if (size >= check.limit) size = this.#liveLeases(check.key, now)?.size ?? 0;
        readings.push({ remaining: Math.max(0, check.limit - size - 1), resetMs: 0 });
        if (size >= check.limit) (refused ??= []).push(index);
      }
    }
    if (refused !== undefined) return { ok: false, refused, retryAfterMs, readings };
    for (let index = 0; index < checks.length; index += 1) {
      const check = checks[index]!;
      if (check.kind === 'rate') this.#tats.set(check.key, tats[index]!);
      else {
        let held = this.#leases.get(check.key);
        if (held === undefined) this.#leases.set(check.key, (held = new Map()));
        held.set(leaseId, now + leaseMs);
      }
    }
    return { ok: true, readings };
  }

  finish(adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string): void {
    const now = this.#now();
    for (const { key, limit, periodMs, delta } of adjustments) {
      if (delta !== 0) this.#tats.set(key, gcraAdjust(this.#tats.get(key), now, limit, periodMs, delta));
    }
    for (const key of leaseKeys) {
      const held = this.#leases.get(key);
      held?.delete(leaseId);
      if (held?.size === 0) this.#leases.delete(key);
    }
  }

  renew(leases: ReadonlyArray<{ key: string; leaseId: string }>, leaseMs: number): void {
    const expiresAt = this.#now() + leaseMs;
    // Only a lease still held: one given back or dropped is not taken again.
    for (const { key, leaseId } of leases) {
      const held = this.#leases.get(key);
      if (held?.has(leaseId)) held.set(leaseId, expiresAt);
    }
  }

  /** The leases of `key` that have not expired (expired ones are dropped). */
  #liveLeases(key: string, now: number): Map<string, number> | undefined {
    const held = this.#leases.get(key);
    if (held === undefined) return undefined;
    for (const [leaseId, expiresAt] of held) if (expiresAt <= now) held.delete(leaseId);
    return held;
  }
}
