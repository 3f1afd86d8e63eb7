import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { admitsReservation, type BudgetAccount, type BudgetStore, type Hold, type Reservation, type ReservationRule } from './budget-store.js';
import { StoreDeadlines } from './store-deadlines.js';

// A counter is a hash: `n` the spend plus the reservations out, `g` the id of this life of the
// counter (drawn by whoever seeded it from the ledger), and one field `r:<id>` per reservation out.
// The fields make a reservation's give-back exact whatever happened to it: a late or resent
// reservation is counted once, a give-back finds out whether its reservation is counted, and
// after Redis lost everything each instance puts its own reservations back (`adopt`) as soon as a
// reply shows it a `g` it has not seen.

/**
 * KEYS[1] counter · ARGV: id, amount, limit, rule, seed or '', new `g`, expiry (epoch s) or '',
 * then id/amount pairs of the caller's reservations to count in a counter it seeds.
 * Answers {verdict (1 in, 0 refused, -1 no counter and no seed), spend counted, reservations out, g}.
 */
const RESERVE = `
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then
  if ARGV[5] == '' then return {-1, 0, 0, ''} end
  redis.call('HSET', key, 'n', ARGV[5], 'g', ARGV[6])
  for i = 8, #ARGV, 2 do
    redis.call('HSET', key, 'r:' .. ARGV[i], ARGV[i + 1])
    redis.call('HINCRBY', key, 'n', ARGV[i + 1])
  end
  if ARGV[7] ~= '' then redis.call('EXPIREAT', key, tonumber(ARGV[7])) end
end
local n = tonumber(redis.call('HGET', key, 'n'))
local g = redis.call('HGET', key, 'g')
local out = redis.call('HLEN', key) - 2
local id = 'r:' .. ARGV[1]
if redis.call('HEXISTS', key, id) == 1 then return {1, n, out, g} end
local amount = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local fits = n + amount <= limit
local alone = out == 0 and n < limit
local rule = ARGV[4]
local admitted
if rule == 'fit' then admitted = fits elseif rule == 'alone' then admitted = alone else admitted = fits or alone end
if not admitted then return {0, n, out, g} end
redis.call('HSET', key, id, ARGV[2])
redis.call('HINCRBY', key, 'n', ARGV[2])
return {1, n + amount, out + 1, g}
`;

/** KEYS[1] counter · ARGV: id, actual cost. Answers the counter's `g`, or '' when there is no counter. */
const SETTLE = `
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return '' end
local id = 'r:' .. ARGV[1]
local held = redis.call('HGET', key, id)
local change = tonumber(ARGV[2])
if held then
  redis.call('HDEL', key, id)
  change = change - tonumber(held)
end
if change ~= 0 then redis.call('HINCRBY', key, 'n', string.format('%.0f', change)) end
return redis.call('HGET', key, 'g')
`;

/** KEYS[1] counter · ARGV: id/amount pairs, counted unless they already are. Answers the counter's `g`, or ''. */
const ADOPT = `
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return '' end
for i = 1, #ARGV, 2 do
  if redis.call('HSETNX', key, 'r:' .. ARGV[i], ARGV[i + 1]) == 1 then redis.call('HINCRBY', key, 'n', ARGV[i + 1]) end
end
return redis.call('HGET', key, 'g')
`;

const names = { reserve: 'switchyardBudgetReserve', settle: 'switchyardBudgetSettle', adopt: 'switchyardBudgetAdopt' } as const;
type ScriptCall = (...args: Array<string | number>) => Promise<unknown>;

/** An hour past the period's end, so a request that settles late still finds its counter. */
const EXPIRY_MARGIN_S = 3_600;
/** The counters' key format: a string counter (the format before reservations were fields) lives under another name. */
const DATA_VERSION = 'v2';

/** What this instance holds on one counter. */
interface Held {
  /** The counter's life its reservations are counted in ('' before any answer). */
  life: string;
  /** Its reservations out, by id. */
  out: Map<string, number>;
}

/**
 * Budgets shared by every instance on one Redis: one round trip per reservation once a counter
 * exists. Each call has a deadline: a budget that cannot be checked in time is refused (503), and
 * a reservation given up is given back by the next command on the same connection, which Redis
 * runs after it however late it runs.
 */
export class RedisBudgetStore implements BudgetStore {
  readonly #redis: Redis & Record<string, ScriptCall>;
  readonly #prefix: string;
  readonly #onError: (error: unknown) => void;
  readonly #deadlines: StoreDeadlines;
  readonly #instance = randomBytes(6).toString('hex');
  #sequence = 0;
  readonly #held = new Map<string, Held>();
  /** A call given up and not answered yet: Redis is down or frozen, so calls are refused at once rather than queued behind it. */
  #stalled = false;

  constructor(redis: Redis, prefix: string, onError: (error: unknown) => void, timeoutMs = 1_000) {
    if (!(names.reserve in redis)) {
      redis.defineCommand(names.reserve, { numberOfKeys: 1, lua: RESERVE });
      redis.defineCommand(names.settle, { numberOfKeys: 1, lua: SETTLE });
      redis.defineCommand(names.adopt, { numberOfKeys: 1, lua: ADOPT });
    }
    this.#redis = redis as Redis & Record<string, ScriptCall>;
    this.#prefix = prefix;
    this.#onError = onError;
    this.#deadlines = new StoreDeadlines(timeoutMs, 'the budget store');
  }

  #key(account: BudgetAccount): string {
    return `${this.#prefix}budget:${DATA_VERSION}:${account.keyId}:${account.periodStart}`;
  }

  #heldOn(key: string): Held {
    let held = this.#held.get(key);
    if (held === undefined) this.#held.set(key, (held = { life: '', out: new Map() }));
    return held;
  }

  async reserve(account: BudgetAccount, nanoUsd: number, rule: ReservationRule): Promise<Reservation> {
    if (this.#stalled) throw new Error('the budget store has not answered a call given up');
    const key = this.#key(account);
    const id = `${this.#instance}:${(this.#sequence++).toString(36)}`;
    const expiry = account.periodEnd === undefined ? '' : String(Math.ceil(account.periodEnd / 1000) + EXPIRY_MARGIN_S);
    let answer = await this.#call(key, id, [id, nanoUsd, account.limitNanoUsd, rule, '', '', expiry]);
    if (answer[0] === -1) {
      const seed = String(await account.spentInLedger());
      const mine = [...this.#heldOn(key).out].flatMap(([heldId, amount]) => [heldId, amount]);
      answer = await this.#call(key, id, [id, nanoUsd, account.limitNanoUsd, rule, seed, randomBytes(8).toString('hex'), expiry, ...mine]);
    }
    const [verdict, counted, , life] = answer;
    if (verdict !== 1) {
      this.#saw(key, life);
      return { ok: false, spentNanoUsd: counted };
    }
    this.#heldOn(key).out.set(id, nanoUsd);
    this.#saw(key, life);
    return { ok: true, hold: { id, nanoUsd } };
  }

  /** One reserve call, within the deadline; given up, it is followed by its give-back. */
  async #call(key: string, id: string, args: Array<string | number>): Promise<[number, number, number, string]> {
    const sent = this.#redis[names.reserve]!(key, ...args) as Promise<[number, number, number, string]>;
    let answered = false;
    const done = () => {
      answered = true;
      this.#stalled = false;
    };
    sent.then(done, done);
    try {
      return await this.#deadlines.within(sent);
    } catch (error) {
      // Sent right after it on the same connection, so Redis runs it after the reservation, if ever it runs.
      this.#send(names.settle, key, id, 0);
      if (!answered) this.#stalled = true;
      throw error;
    }
  }

  settle(account: BudgetAccount, hold: Hold, actualNanoUsd: number): void {
    const key = this.#key(account);
    const held = this.#held.get(key);
    held?.out.delete(hold.id);
    if (held?.out.size === 0 && held.life !== '') this.#held.delete(key);
    this.#send(names.settle, key, hold.id, actualNanoUsd);
  }

  /** A call nothing waits for (settle, give-back, adopt): its answer may show the counter was lost and seeded again. */
  #send(name: string, key: string, ...args: Array<string | number>): void {
    (this.#redis[name]!(key, ...args) as Promise<string>).then((life) => this.#saw(key, life), this.#onError);
  }

  /**
   * A reply showed the counter's life: when it is not the one this instance's reservations are
   * counted in, Redis lost them (a restart), so they are counted again in this one.
   */
  #saw(key: string, life: string): void {
    if (life === '') return;
    const held = this.#held.get(key);
    if (held === undefined || held.life === life) return;
    held.life = life;
    if (held.out.size === 0) {
      this.#held.delete(key);
      return;
    }
    this.#send(names.adopt, key, ...[...held.out].flatMap(([id, amount]) => [id, amount]));
  }
}
