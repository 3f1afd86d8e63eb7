import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { takeLease } from '../storage/leases.js';
import type { StorageDb } from '../storage/schema.js';

/**
 * The one name the probe's lock has, in Redis (after the prefix) and in the leases table. Not the
 * `status-probe` of the earlier lock, which held a holder rather than a round's end.
 */
const LOCK_NAME = 'status-probe-round';

/**
 * Claims the round ending at ARGV[2] (epoch ms) when the round last claimed ended by ARGV[1] (this
 * round's start): rounds only move forward, and each is claimed once. The key outlives the round
 * by ARGV[3] ms so a clock a little behind still finds it.
 */
const CLAIM_ROUND = `
local claimed = tonumber(redis.call('GET', KEYS[1]))
if claimed ~= nil and claimed > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

/**
 * Who runs a round of probes. Rounds are fixed windows of the wall clock (`floor(now / interval)`),
 * and the lock records the end of the last round claimed: an instance claims a round only if no
 * instance claimed it (or a later one) yet. So each round is probed at most once, however late an
 * instance's timer fires within it, and no renewal is needed when the prober changes. Stored as one
 * Redis key (a script checks and sets it at once) when Redis is configured, otherwise as a lease row
 * in the shared database (which one SQL statement hands to one instance only).
 */
export class ProbeLock {
  /** This instance, as the lock's holder. */
  readonly holder = `instance-${randomBytes(8).toString('hex')}`;
  readonly #redis: Redis | undefined;
  readonly #key: string;
  /** Tells this instance's claims apart: a second claim of a round it already holds must fail. */
  #claims = 0;

  constructor(redis: Redis | undefined, redisPrefix: string) {
    this.#redis = redis;
    this.#key = `${redisPrefix}${LOCK_NAME}`;
  }

  /** Claims the round `[roundStart, roundStart + intervalMs)`; true for the one claim that gets it. */
  async claimRound(db: StorageDb, roundStart: number, intervalMs: number): Promise<boolean> {
    const roundEnd = roundStart + intervalMs;
    if (this.#redis !== undefined) {
      const keepMs = roundEnd - Date.now() + intervalMs;
      return (await this.#redis.eval(CLAIM_ROUND, 1, this.#key, roundStart, roundEnd, Math.max(intervalMs, keepMs))) === 1;
    }
    // The lease of the last round claimed is up at that round's end, which is this round's start at the latest.
    this.#claims += 1;
    return takeLease(db, LOCK_NAME, `${this.holder}-${this.#claims}`, intervalMs, roundStart);
  }
}
