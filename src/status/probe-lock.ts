import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { takeLease } from '../storage/leases.js';
import type { StorageDb } from '../storage/schema.js';

/** The one name the probe's lock has, in Redis (after the prefix) and in the leases table. */
const LOCK_NAME = 'status-probe';

/**
 * Who runs the next round of probes: the instance that takes the lock first, for `ttlMs` — a Redis
 * key set with `SET NX PX` when Redis is configured, otherwise a lease row in the shared database
 * (which one SQL statement hands to one instance only). The lock is left to expire, so the other
 * instances skip the round instead of probing right after.
 */
export class ProbeLock {
  /** This instance, as the lock's holder. */
  readonly holder = `instance-${randomBytes(8).toString('hex')}`;
  readonly #redis: Redis | undefined;
  readonly #key: string;

  constructor(redis: Redis | undefined, redisPrefix: string) {
    this.#redis = redis;
    this.#key = `${redisPrefix}${LOCK_NAME}`;
  }

  async take(db: StorageDb, ttlMs: number): Promise<boolean> {
    if (this.#redis !== undefined) return (await this.#redis.set(this.#key, this.holder, 'PX', ttlMs, 'NX')) === 'OK';
    return takeLease(db, LOCK_NAME, this.holder, ttlMs);
  }
}
