// The arguments of one call of the limits' batch script (redis-limit-scripts.ts), written as text
// as they are gathered: no array of numbers joined at the end, and no JSON.stringify of lease ids
// that need no escaping. A call carries the requests of a turn, so this runs once per call.

import type { LimitCheck, RateAdjustment } from './limit-store.js';

/** A lease id that needs no escaping inside a JSON string (request ids, `req_` + hex, always do). */
const PLAIN_LEASE_ID = /^[\w.:-]*$/;

/** A counter's numbers in the batch's table, named by its place there (from 1). */
interface Counter {
  readonly index: number;
  readonly burst: number;
  readonly limit: number;
  readonly periodMs: number;
}

/**
 * One batch: its KEYS (each counter's Redis key once), ARGV[1] (every number, as a JSON array) and
 * ARGV[2] (the lease ids, as a JSON array of strings). A counter's limit, period and burst are
 * written once in a table at the head, not once per request that meets it; a request names the
 * counter by its place in the table.
 */
export class RedisLimitBatch {
  readonly keys: string[] = [];
  readonly #keyOf: (name: string) => string;
  readonly #places = new Map<string, number>();
  readonly #counters = new Map<string, Counter>();
  #counterCount = 0;
  #table = '';
  #body = '';
  #leaseIds = '';
  #leaseIdCount = 0;

  /** `keyOf`: a counter name's Redis key. */
  constructor(keyOf: (name: string) => string) {
    this.#keyOf = keyOf;
  }

  /** Requests that ended: their token counters moved, their leases given back. Written first. */
  ending(count: number): void {
    this.#body = String(count);
  }

  ended(adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string): void {
    this.#leaseId(leaseId);
    this.#body += `,${adjustments.length},${leaseKeys.length}`;
    for (const { key, limit, periodMs, delta } of adjustments) this.#body += `,${this.#counter(key, undefined, limit, periodMs)},${delta}`;
    for (const key of leaseKeys) this.#body += `,${this.#place(key)}`;
  }

  asking(count: number): void {
    this.#body += `,${count}`;
  }

  ask(checks: readonly LimitCheck[], leaseId: string): void {
    this.#leaseId(leaseId);
    this.#body += `,${checks.length}`;
    // Concurrency counts as burst 0 in the table: a rate's burst is 1 or more.
    for (const check of checks)
      this.#body += `,${this.#counter(check.key, check.kind === 'rate' ? check.burst : 0, check.limit, check.periodMs)},${check.cost}`;
  }

  renewing(count: number): void {
    this.#body += `,${count}`;
  }

  renew(key: string, leaseId: string): void {
    this.#leaseId(leaseId);
    this.#body += `,${this.#place(key)}`;
  }

  /** ARGV[1]: lease ms, the counter table, then what `ending`, `asking` and `renewing` wrote. */
  numbers(leaseMs: number): string {
    return `[${leaseMs},${this.#counterCount}${this.#table},${this.#body}]`;
  }

  /** ARGV[2]. */
  leaseIds(): string {
    return this.#leaseIdCount === 0 ? '[]' : `["${this.#leaseIds}"]`;
  }

  #leaseId(id: string): void {
    const text = PLAIN_LEASE_ID.test(id) ? id : JSON.stringify(id).slice(1, -1);
    this.#leaseIds += this.#leaseIdCount === 0 ? text : `","${text}`;
    this.#leaseIdCount += 1;
  }

  /** A key's place in KEYS (from 1). */
  #place(name: string): number {
    let place = this.#places.get(name);
    if (place === undefined) this.#places.set(name, (place = this.keys.push(this.#keyOf(name))));
    return place;
  }

  /**
   * A counter's place in the table. `burst` undefined (a request that ended moves the counter by
   * its limit and period only) matches any. The same counter with other numbers (its limit changed
   * while requests of both were out) gets a row of its own, so each request keeps its own numbers.
   */
  #counter(name: string, burst: number | undefined, limit: number, periodMs: number): number {
    const known = this.#counters.get(name);
    if (known !== undefined && known.limit === limit && known.periodMs === periodMs && (burst === undefined || known.burst === burst))
      return known.index;
    const row = { index: ++this.#counterCount, burst: burst ?? 1, limit, periodMs };
    this.#counters.set(name, row);
    this.#table += `,${this.#place(name)},${row.burst},${limit},${periodMs}`;
    return row.index;
  }
}
