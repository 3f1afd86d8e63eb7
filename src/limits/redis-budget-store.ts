import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { BudgetAccount, BudgetStore, Hold, Reservation, ReservationRule } from './budget-store.js';
import { StoreDeadlines } from './store-deadlines.js';

// A counter is a hash: `n` the spend plus the reservations out, `g` the id of this life of the
// counter (drawn by whoever seeded it from the ledger), and one field `r:<id>` per reservation out.
// The fields make a reservation's give-back exact whatever happened to it: a late or resent
// reservation is counted once, and a give-back finds out whether its reservation is counted.
// Redis may lose every counter (a restart without persistence): each instance then puts its own
// reservations back — on reconnecting, and whenever a reply shows it a `g` it has not seen — and
// no counter admits anything for RESTORING_MS after an instance found Redis empty, the time
// instances take to reconnect and do so. Redis is known to have been emptied by the store's mark
// (`kept`, a random value): missing to an instance that saw it before.

/** How long after Redis was found emptied no counter admits (ioredis reconnects within 2 s by default). */
const RESTORING_MS = 3_000;

/**
 * KEYS: the counter, the store's mark, the restoring mark. ARGV[1] the mark this instance saw
 * ('' none), ARGV[2] a new mark. `create(seed, life, expiry)` starts a counter at the ledger's
 * spend; `adopt(from)` counts the id/amount pairs from ARGV[from] on that are not counted yet.
 */
const COMMON = `
local kept = redis.call('GET', KEYS[2])
if not kept then
  kept = ARGV[2]
  redis.call('SET', KEYS[2], kept)
  if ARGV[1] ~= '' then redis.call('SET', KEYS[3], '1', 'PX', ${RESTORING_MS}) end
end
local function create(seed, life, expiry)
  redis.call('HSET', KEYS[1], 'n', seed, 'g', life)
  if expiry ~= '' then redis.call('EXPIREAT', KEYS[1], tonumber(expiry)) end
end
local function adopt(from)
  for i = from, #ARGV, 2 do
    if redis.call('HSETNX', KEYS[1], 'r:' .. ARGV[i], ARGV[i + 1]) == 1 then redis.call('HINCRBY', KEYS[1], 'n', ARGV[i + 1]) end
  end
end
`;

/**
 * ARGV after the marks: id, amount, limit, rule, seed or '', new `g`, expiry (epoch s) or '', then
 * id/amount pairs of the caller's reservations to count in a counter it seeds. Answers {verdict
 * (1 in, 0 refused, -1 no counter and no seed, -2 restoring), spend counted, reservations out, g, mark,
 * and when refused what the reservations out hold}.
 */
const RESERVE = `${COMMON}
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then
  if ARGV[7] == '' then return {-1, 0, 0, '', kept} end
  create(ARGV[7], ARGV[8], ARGV[9])
  adopt(10)
end
local n = tonumber(redis.call('HGET', key, 'n'))
local g = redis.call('HGET', key, 'g')
local out = redis.call('HLEN', key) - 2
local id = 'r:' .. ARGV[3]
if redis.call('HEXISTS', key, id) == 1 then return {1, n, out, g, kept} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {-2, n, out, g, kept} end
local amount = tonumber(ARGV[4])
local limit = tonumber(ARGV[5])
local fits = n + amount <= limit
local alone = out == 0 and n < limit
local rule = ARGV[6]
local admitted
if rule == 'fit' then admitted = fits elseif rule == 'alone' then admitted = alone else admitted = fits or alone end
if not admitted then
  -- Refused: what the others hold tells the caller whether it may fit once they are done.
  local held = 0
  local fields = redis.call('HGETALL', key)
  for i = 1, #fields, 2 do
    if string.sub(fields[i], 1, 2) == 'r:' then held = held + tonumber(fields[i + 1]) end
  end
  return {0, n, out, g, kept, held}
end
redis.call('HSET', key, id, ARGV[4])
redis.call('HINCRBY', key, 'n', ARGV[4])
return {1, n + amount, out + 1, g, kept}
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

/**
 * KEYS and marks as RESERVE's · ARGV after the marks: seed or '', new `g`, expiry or '', then
 * id/amount pairs, counted unless they are. Seeds a missing counter when given a seed. Answers
 * {g or '', mark}.
 */
const ADOPT = `${COMMON}
if redis.call('EXISTS', KEYS[1]) == 0 then
  if ARGV[3] == '' then return {'', kept} end
  create(ARGV[3], ARGV[4], ARGV[5])
end
adopt(6)
return {redis.call('HGET', KEYS[1], 'g'), kept}
`;

const names = { reserve: 'switchyardBudgetReserve', settle: 'switchyardBudgetSettle', adopt: 'switchyardBudgetAdopt' } as const;
type ScriptCall = (...args: Array<string | number>) => Promise<unknown>;

/** An hour past the period's end, so a request that settles late still finds its counter. */
const EXPIRY_MARGIN_S = 3_600;
/** The counters' key format: a string counter (the format before reservations were fields) lives under another name. */
const DATA_VERSION = 'v2';

/** What this instance holds on one counter. */
interface Held {
  account: BudgetAccount;
  /** The counter's life its reservations are counted in ('' before any answer). */
  life: string;
  /** Its reservations out, by id. */
  out: Map<string, number>;
}

const expiryOf = (account: BudgetAccount) =>
  account.periodEnd === undefined ? '' : String(Math.ceil(account.periodEnd / 1000) + EXPIRY_MARGIN_S);
const pairsOf = (held: Held | undefined) => [...(held?.out ?? [])].flat();
const newLife = () => randomBytes(8).toString('hex');

/** Client states in which a call is not sent, only queued until the client reconnects. */
const DOWN = new Set(['reconnecting', 'close', 'end']);

/** The counters were lost and are being put back together: the request is refused (503) rather than counted against an incomplete counter. */
class RestoringError extends Error {}

/**
 * Budgets shared by every instance on one Redis: one round trip per reservation once a counter
 * exists. Each call has a deadline: a budget that cannot be checked in time is refused (503), and
 * a reservation given up is given back by the next command on the same connection, which Redis
 * runs after it however late it runs.
 */
export class RedisBudgetStore implements BudgetStore {
  readonly #redis: Redis & Record<string, ScriptCall>;
  readonly #prefix: string;
  readonly #marks: [string, string];
  readonly #onError: (error: unknown) => void;
  readonly #deadlines: StoreDeadlines;
  readonly #instance = randomBytes(6).toString('hex');
  #sequence = 0;
  readonly #held = new Map<string, Held>();
  /** A call given up and not answered yet: Redis is down or frozen, so calls are refused at once rather than queued behind it. */
  #stalled = false;
  /** The store's mark in Redis as this instance last saw it ('' before): missing later, Redis lost everything. */
  #kept = '';
  readonly #onReady = () => this.#restoreAll();

  constructor(redis: Redis, prefix: string, onError: (error: unknown) => void, timeoutMs = 1_000) {
    if (!(names.reserve in redis)) {
      redis.defineCommand(names.reserve, { numberOfKeys: 3, lua: RESERVE });
      redis.defineCommand(names.settle, { numberOfKeys: 1, lua: SETTLE });
      redis.defineCommand(names.adopt, { numberOfKeys: 3, lua: ADOPT });
    }
    this.#redis = redis as Redis & Record<string, ScriptCall>;
    this.#prefix = `${prefix}budget:${DATA_VERSION}:`;
    this.#marks = [`${this.#prefix}~kept`, `${this.#prefix}~restoring`];
    this.#onError = onError;
    this.#deadlines = new StoreDeadlines(timeoutMs, 'the budget store');
    // Reconnected: Redis may have restarted empty, so this instance's reservations are put back.
    redis.on('ready', this.#onReady);
  }

  /** Stops listening to the client (it may be shared, and outlive the gateway). */
  close(): void {
    this.#redis.off('ready', this.#onReady);
  }

  #key(account: BudgetAccount): string {
    return `${this.#prefix}${account.keyId}:${account.periodStart}`;
  }

  #heldOn(key: string, account: BudgetAccount): Held {
    let held = this.#held.get(key);
    if (held === undefined) this.#held.set(key, (held = { account, life: '', out: new Map() }));
    return held;
  }

  async reserve(account: BudgetAccount, nanoUsd: number, rule: ReservationRule): Promise<Reservation> {
    if (this.#stalled) throw new Error('the budget store has not answered a call given up');
    // Disconnected: a call would only wait in the client's queue for the deadline.
    if (DOWN.has(this.#redis.status)) throw new Error(`the budget store is not connected (${this.#redis.status})`);
    const key = this.#key(account);
    const id = `${this.#instance}:${(this.#sequence++).toString(36)}`;
    const expiry = expiryOf(account);
    let answer = await this.#call(key, id, [id, nanoUsd, account.limitNanoUsd, rule, '', '', expiry]);
    if (answer[0] === -1) {
      const seed = String(await account.spentInLedger());
      answer = await this.#call(key, id, [
        id,
        nanoUsd,
        account.limitNanoUsd,
        rule,
        seed,
        newLife(),
        expiry,
        ...pairsOf(this.#held.get(key)),
      ]);
    }
    const [verdict, counted, , life, kept, held = 0] = answer;
    this.#kept = kept;
    if (verdict === 1) this.#heldOn(key, account).out.set(id, nanoUsd);
    this.#saw(key, life);
    if (verdict === -2) throw new RestoringError('the budget counters are being restored after Redis lost them');
    return verdict === 1 ? { ok: true, hold: { id, nanoUsd } } : { ok: false, spentNanoUsd: counted - held, heldNanoUsd: held };
  }

  /** One reserve call, within the deadline; given up, it is followed by its give-back. */
  async #call(key: string, id: string, args: Array<string | number>): Promise<[number, number, number, string, string, number?]> {
    const sent = this.#redis[names.reserve]!(key, ...this.#marks, this.#kept, newLife(), ...args) as Promise<
      [number, number, number, string, string, number?]
    >;
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
      this.#send(key, id, 0);
      if (!answered) this.#stalled = true;
      throw error;
    }
  }

  settle(account: BudgetAccount, hold: Hold, actualNanoUsd: number): void {
    const key = this.#key(account);
    const held = this.#held.get(key);
    held?.out.delete(hold.id);
    if (held?.out.size === 0 && held.life !== '') this.#held.delete(key);
    this.#send(key, hold.id, actualNanoUsd);
  }

  /** A settle or give-back, which nothing waits for: its answer may show the counter was lost and seeded again. */
  #send(key: string, id: string, actualNanoUsd: number): void {
    (this.#redis[names.settle]!(key, id, actualNanoUsd) as Promise<string>).then((life) => this.#saw(key, life), this.#onError);
  }

  /** Counts this instance's reservations on `key` that its counter does not hold; with a seed, starts the counter when it is gone. */
  #adopt(key: string, held: Held, seed: string, expiry: string): void {
    const args = [...this.#marks, this.#kept, newLife(), seed, seed === '' ? '' : newLife(), expiry, ...pairsOf(held)];
    (this.#redis[names.adopt]!(key, ...args) as Promise<[string, string]>).then(([life, kept]) => {
      this.#kept = kept;
      this.#saw(key, life);
    }, this.#onError);
  }

  /**
   * A reply showed the counter's life: when it is not the one this instance's reservations are
   * counted in, Redis lost them (a restart), so they are counted again in this one.
   */
  #saw(key: string, life: string): void {
    if (life === '') return;
    const held = this.#held.get(key);
    if (held === undefined || held.life === life) return;
    const first = held.life === '';
    held.life = life;
    if (held.out.size === 0) this.#held.delete(key);
    // Before any answer, every reservation held was counted in the life its own answer showed.
    else if (!first) this.#adopt(key, held, '', '');
  }

  /** Puts this instance's reservations back into each counter, seeding the counters Redis no longer has. */
  #restoreAll(): void {
    for (const [key, held] of this.#held) {
      if (held.out.size === 0) continue;
      held.account.spentInLedger().then((seed) => this.#adopt(key, held, String(seed), expiryOf(held.account)), this.#onError);
    }
  }
}
