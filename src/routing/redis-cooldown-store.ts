import type { Redis } from 'ioredis';
import { TRIAL_MS, type CooldownStore, type ResolvedCooldowns, type Standing } from './cooldown.js';

// Key names and script names carry a version: a change to either gets a new one, so instances of
// two versions never read each other's state during a rolling deploy. Times are Redis's own (key
// TTLs), so instances whose clocks differ still agree.
const VERSION = 'v1';
const names = { standings: `switchyardCooldownStandings_${VERSION}`, failed: `switchyardCooldownFailed_${VERSION}` };

/**
 * KEYS: per deployment, its `out` key (alive while cooling), `tripped` key (alive from a cooldown
 * until its trial succeeds) and `trial` key. ARGV: trial ms.
 * Returns per deployment: 0 in service, -1 the trial is this caller's, n > 0 cooling for n ms more.
 */
const STANDINGS = `
local out = {}
for i = 1, #KEYS, 3 do
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl > 0 then
    out[#out + 1] = ttl
  elseif redis.call('EXISTS', KEYS[i + 1]) == 1 then
    if redis.call('SET', KEYS[i + 2], '1', 'NX', 'PX', ARGV[1]) then
      out[#out + 1] = -1
    else
      out[#out + 1] = math.max(1, redis.call('PTTL', KEYS[i + 2]))
    end
  else
    out[#out + 1] = 0
  end
end
return out`;

/**
 * KEYS: failures, out, tripped, trial. ARGV: failures that trip, window ms, cooldown ms, forced
 * cooldown ms (0: none), how long `tripped` outlives a cooldown. Returns the cooldown begun in ms, or 0.
 */
const FAILED = `
local cool = tonumber(ARGV[4])
if cool == 0 and redis.call('EXISTS', KEYS[3]) == 1 and redis.call('PTTL', KEYS[2]) <= 0 then
  cool = tonumber(ARGV[3])
end
if cool == 0 then
  local n = redis.call('INCR', KEYS[1])
  if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
  if n >= tonumber(ARGV[1]) then cool = tonumber(ARGV[3]) end
end
if cool == 0 then return 0 end
if redis.call('PTTL', KEYS[2]) < cool then redis.call('SET', KEYS[2], '1', 'PX', cool) end
redis.call('SET', KEYS[3], '1', 'PX', cool + tonumber(ARGV[5]))
redis.call('DEL', KEYS[1], KEYS[4])
return cool`;

type ScriptCall = (keyCount: number, ...keysAndArgs: Array<string | number>) => Promise<unknown>;

/** How long a deployment that cooled down is still probed (one trial at a time) rather than trusted at once. */
const TRIPPED_MS = 600_000;

/** What this instance last learned of a deployment: when, and until when it is out (0: in service). */
interface Seen {
  readonly readAt: number;
  readonly outUntil: number;
}

const IN_SERVICE: ReadonlyMap<string, Standing> = new Map();

/**
 * Cooldowns shared by every instance on one Redis. A read is one script call for all of a model's
 * deployments; what it answers is then trusted for `refreshMs` (and what this instance's own
 * failures and recoveries change, at once), so a routed request does not pay a Redis round trip
 * each: a deployment taken out by another instance is skipped here within `refreshMs`. A cooldown
 * this instance knows of that has run out is read again at once, since its trial is claimed in
 * Redis (one request across every instance).
 */
export class RedisCooldownStore implements CooldownStore {
  readonly #redis: Redis & Record<string, ScriptCall>;
  readonly #prefix: string;
  readonly #options: ResolvedCooldowns;
  readonly #seen = new Map<string, Seen>();
  readonly #now: () => number;

  /** `prefix`: the gateway's Redis prefix (e.g. `switchyard:`). */
  constructor(redis: Redis, prefix: string, options: ResolvedCooldowns, now: () => number = Date.now) {
    // defineCommand sends EVALSHA, and the script itself only when Redis does not have it yet.
    if (!(names.standings in redis)) {
      redis.defineCommand(names.standings, { lua: STANDINGS });
      redis.defineCommand(names.failed, { lua: FAILED });
    }
    this.#redis = redis as Redis & Record<string, ScriptCall>;
    this.#prefix = `${prefix}cooldown:${VERSION}:`;
    this.#options = options;
    this.#now = now;
  }

  #keys(name: string): [string, string, string, string] {
    const base = this.#prefix + name;
    return [`${base}:out`, `${base}:tripped`, `${base}:trial`, `${base}:failures`];
  }

  standings(deployments: readonly string[]): ReadonlyMap<string, Standing> | Promise<ReadonlyMap<string, Standing>> {
    return this.#known(deployments, this.#now()) ?? this.#read(deployments);
  }

  /** The standings as last read, if every one is recent enough and none of their cooldowns ran out since. */
  #known(deployments: readonly string[], now: number): ReadonlyMap<string, Standing> | undefined {
    const { refreshMs } = this.#options;
    if (refreshMs === 0) return undefined;
    let standings: Map<string, Standing> | undefined;
    for (const name of deployments) {
      const seen = this.#seen.get(name);
      if (seen === undefined || now - seen.readAt >= refreshMs) return undefined;
      if (seen.outUntil === 0) continue;
      if (now >= seen.outUntil) return undefined;
      (standings ??= new Map()).set(name, { state: 'cooling', forMs: seen.outUntil - now });
    }
    return standings ?? IN_SERVICE;
  }

  async #read(deployments: readonly string[]): Promise<ReadonlyMap<string, Standing>> {
    const keys = deployments.flatMap((name) => this.#keys(name).slice(0, 3));
    const answer = (await this.#redis[names.standings]!(keys.length, ...keys, TRIAL_MS)) as number[];
    const now = this.#now();
    const standings = new Map<string, Standing>();
    deployments.forEach((name, index) => {
      const value = answer[index] ?? 0;
      // The trial is this caller's: the others here stay off the deployment until it reports back.
      if (value === -1) standings.set(name, { state: 'trial' });
      else if (value > 0) standings.set(name, { state: 'cooling', forMs: value });
      this.#seen.set(name, { readAt: now, outUntil: value === 0 ? 0 : now + (value === -1 ? TRIAL_MS : value) });
    });
    return standings;
  }

  async failed(name: string, coolForMs?: number): Promise<number> {
    const [out, tripped, trial, failures] = this.#keys(name);
    const { failures: threshold, windowMs, cooldownMs, maxCooldownMs } = this.#options;
    const forced = coolForMs === undefined ? 0 : Math.max(1, Math.round(Math.min(coolForMs, maxCooldownMs)));
    const cool = Number(
      await this.#redis[names.failed]!(4, failures, out, tripped, trial, threshold, windowMs, cooldownMs, forced, TRIPPED_MS),
    );
    if (cool > 0) {
      const now = this.#now();
      this.#seen.set(name, { readAt: now, outUntil: now + cool });
    }
    return cool;
  }

  async recovered(name: string): Promise<void> {
    await this.#redis.del(...this.#keys(name));
    this.#seen.set(name, { readAt: this.#now(), outUntil: 0 });
  }
}
