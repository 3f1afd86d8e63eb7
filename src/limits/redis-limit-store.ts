import type { Redis } from 'ioredis';
import type { AcquireResult, LimitCheck, LimitReading, LimitStore, RateAdjustment } from './limit-store.js';

// The scripts take Redis's own clock (TIME), so instances whose clocks differ still agree. Their
// names and the keys they use carry a version: a change to either gets a new version, so during a
// rolling deploy old and new instances never run each other's scripts on each other's data.
const VERSION = 'v1';

/**
 * Checks every limit of a request and takes them all, or none (the GCRA of gcra.ts, and leases
 * in a sorted set scored by expiry).
 * KEYS: one per check · ARGV: lease id, lease ms, then per check: kind (r|c), limit, period ms, cost
 * Returns {ok, retryAfterMs (-1: never), refused count, refused indexes..., then remaining and reset ms per check}.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local leaseId, leaseMs = ARGV[1], tonumber(ARGV[2])
local tats, readings, refused = {}, {}, {}
local retry = 0
for i = 1, #KEYS do
  local at = 2 + (i - 1) * 4
  local kind, limit = ARGV[at + 1], tonumber(ARGV[at + 2])
  if kind == 'r' then
    local period, cost = tonumber(ARGV[at + 3]), tonumber(ARGV[at + 4])
    local interval = period / limit
    local base = tonumber(redis.call('GET', KEYS[i]) or '0')
    if base < now then base = now end
    local tat = base + cost * interval
    if tat - now <= period then
      tats[i] = tat
      readings[#readings + 1] = math.floor((period - (tat - now)) / interval)
      readings[#readings + 1] = math.ceil(tat - now)
    else
      refused[#refused + 1] = i - 1
      if cost > limit then retry = -1 elseif retry >= 0 then retry = math.max(retry, math.ceil(tat - period - now)) end
      readings[#readings + 1] = math.max(0, math.floor((period - (base - now)) / interval))
      readings[#readings + 1] = math.ceil(base - now)
    end
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    local size = redis.call('ZCARD', KEYS[i])
    if size >= limit then refused[#refused + 1] = i - 1 end
    readings[#readings + 1] = math.max(0, limit - size - 1)
    readings[#readings + 1] = 0
  end
end
if #refused == 0 then
  for i = 1, #KEYS do
    if tats[i] then
      redis.call('SET', KEYS[i], string.format('%.3f', tats[i]), 'PX', math.ceil(tats[i] - now) + 1000)
    else
      redis.call('ZADD', KEYS[i], now + leaseMs, leaseId)
      redis.call('PEXPIRE', KEYS[i], leaseMs + 1000)
    end
  end
end
local answer = {#refused == 0 and 1 or 0, retry, #refused}
for _, index in ipairs(refused) do answer[#answer + 1] = index end
for _, value in ipairs(readings) do answer[#answer + 1] = value end
return answer
`;

/**
 * Moves token counters by what requests really used and gives leases back.
 * KEYS: the rate counters, then the lease sets · ARGV: lease id, counter count, then per counter: limit, period ms, delta
 */
const FINISH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local counters = tonumber(ARGV[2])
for i = 1, counters do
  local at = 3 + (i - 1) * 3
  local limit, period, delta = tonumber(ARGV[at]), tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
  local base = tonumber(redis.call('GET', KEYS[i]) or '0')
  if base < now then base = now end
  local tat = math.max(now, base + delta * period / limit)
  redis.call('SET', KEYS[i], string.format('%.3f', tat), 'PX', math.ceil(tat - now) + 1000)
end
for i = counters + 1, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
return 1
`;

/** Extends leases still held (one that already expired is not taken again). KEYS: lease sets · ARGV: lease ms, then one lease id per key */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local leaseMs = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', now + leaseMs, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], leaseMs + 1000)
end
return 1
`;

type ScriptCall = (keyCount: number, ...keysAndArgs: Array<string | number>) => Promise<unknown>;
interface LimitScripts {
  [name: string]: ScriptCall;
}

const names = { acquire: `switchyardLimitsAcquire_${VERSION}`, finish: `switchyardLimitsFinish_${VERSION}`, renew: `switchyardLimitsRenew_${VERSION}` };

/** Limits shared by every instance on one Redis: one round trip to admit a request, one to finish it. */
export class RedisLimitStore implements LimitStore {
  readonly #redis: Redis & LimitScripts;
  readonly #prefix: string;

  /** `prefix`: the gateway's Redis prefix (e.g. `switchyard:`). */
  constructor(redis: Redis, prefix: string) {
    // defineCommand sends EVALSHA, and the script itself only when Redis does not have it yet.
    if (!(names.acquire in redis)) {
      redis.defineCommand(names.acquire, { lua: ACQUIRE });
      redis.defineCommand(names.finish, { lua: FINISH });
      redis.defineCommand(names.renew, { lua: RENEW });
    }
    this.#redis = redis as Redis & LimitScripts;
    this.#prefix = `${prefix}limits:${VERSION}:`;
  }

  async acquire(checks: readonly LimitCheck[], leaseId: string, leaseMs: number): Promise<AcquireResult> {
    const args: Array<string | number> = [leaseId, leaseMs];
    for (const check of checks) args.push(check.kind === 'rate' ? 'r' : 'c', check.limit, check.periodMs, check.cost);
    const answer = (await this.#redis[names.acquire]!(checks.length, ...checks.map((check) => this.#prefix + check.key), ...args)) as number[];
    const [ok, retry, refusedCount] = answer as [number, number, number];
    const refused = answer.slice(3, 3 + refusedCount);
    const readings: LimitReading[] = [];
    for (let at = 3 + refusedCount; at < answer.length; at += 2) readings.push({ remaining: answer[at]!, resetMs: answer[at + 1]! });
    if (ok === 1) return { ok: true, readings };
    return { ok: false, refused, retryAfterMs: retry === -1 ? Infinity : retry, readings };
  }

  async finish(adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string): Promise<void> {
    const moving = adjustments.filter((adjustment) => adjustment.delta !== 0);
    if (moving.length === 0 && leaseKeys.length === 0) return;
    const args: Array<string | number> = [leaseId, moving.length];
    for (const { limit, periodMs, delta } of moving) args.push(limit, periodMs, delta);
    const keys = [...moving.map((adjustment) => this.#prefix + adjustment.key), ...leaseKeys.map((key) => this.#prefix + key)];
    await this.#redis[names.finish]!(keys.length, ...keys, ...args);
  }

  async renew(leases: ReadonlyArray<{ key: string; leaseId: string }>, leaseMs: number): Promise<void> {
    if (leases.length === 0) return;
    await this.#redis[names.renew]!(leases.length, ...leases.map((lease) => this.#prefix + lease.key), leaseMs, ...leases.map((lease) => lease.leaseId));
  }
}
