import type { Redis } from 'ioredis';
import type { AcquireResult, LimitCheck, LimitReading, LimitStore, RateAdjustment } from './limit-store.js';
import { RedisLimitBatch } from './redis-limit-batch.js';
import { BATCH, batchScriptName, DATA_VERSION, type ScriptCall } from './redis-limit-scripts.js';
import { StoreDeadlines } from './store-deadlines.js';

/** Counter names whose Redis keys are remembered at most; past it the cache starts over. */
const MAX_KEYS = 10_000;

const NONE_REFUSED: readonly number[] = [];

/** Requests per script call at most; more wait for the next call. */
const MAX_BATCH = 256;

interface Asking {
  checks: readonly LimitCheck[];
  leaseId: string;
  leaseMs: number;
  resolve: (result: AcquireResult) => void;
  reject: (error: unknown) => void;
}

/** Leases of running requests to extend (every `leaseMs / 3`, limit-stage.ts). */
interface Renewing {
  leases: ReadonlyArray<{ key: string; leaseId: string }>;
  leaseMs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Ending {
  adjustments: readonly RateAdjustment[];
  leaseKeys: readonly string[];
  leaseId: string;
  /** Told when its call is answered or fails; undefined for a give-back sent again, already settled. */
  group: EndingGroup | undefined;
}

/**
 * The give-backs gathered until a call takes them: one promise for them all, settled when every
 * one's call is answered (or the first fails), not a promise and two resolvers for each.
 */
class EndingGroup {
  readonly done: Promise<void>;
  #members = 0;
  #resolve!: () => void;
  #reject!: (error: unknown) => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  joined(): void {
    this.#members += 1;
  }

  answered(): void {
    if (--this.#members === 0) this.#resolve();
  }

  failed(error: unknown): void {
    this.#reject(error);
  }
}

const moves = (adjustment: RateAdjustment) => adjustment.delta !== 0;
const RESOLVED = Promise.resolve();

/** How long a script call may be out before it stops holding the next one back (a slow Redis must not queue everyone). */
const HOLD_BACK_MS = 20;

/**
 * How long the give-backs of requests that ended may wait for a call admitting requests, to go with
 * it, by default (`limits.givebackWaitMs`): under load one always comes first, and a call saved is a
 * round trip saved (a quarter of the calls on 8 connections). Other instances see a slot taken at
 * most this much longer; this instance's next request is not held at all, since a call runs its
 * give-backs before its requests.
 */
const GIVEBACK_WAIT_MS = 10;

export interface RedisLimitStoreOptions {
  /** How long a call may be out before its requests are told the store is down (ioredis itself would wait as long as it reconnects). Default 1 000 ms. */
  timeoutMs?: number | undefined;
  /** How long give-backs wait for a call admitting requests before they go alone. Default 10 ms. */
  givebackWaitMs?: number | undefined;
}

/** ioredis states in which a call would wait in its offline queue for a connection that is not there. */
const AWAY = new Set(['reconnecting', 'close', 'end']);

/** Slots whose give-back did not reach Redis, kept at most to send again (past it they wait for their lease to run out). */
const MAX_UNRETURNED = 10_000;

/**
 * Limits shared by every instance on one Redis. Requests go to Redis together, in one script call:
 * those of one turn of the event loop, and, while a call admitting requests is out, every one that
 * arrives until it comes back; the give-backs of requests that ended go with the next of those
 * calls, or alone after `givebackWaitMs`. Under load a round trip (and its system calls, the larger
 * cost) serves many requests instead of one or two; alone, a request waits for no one.
 */
export class RedisLimitStore implements LimitStore {
  readonly #redis: Redis & Record<string, ScriptCall>;
  readonly #prefix: string;
  readonly #keys = new Map<string, string>();
  #asking: Asking[] = [];
  #ending: Ending[] = [];
  /** The give-backs waiting in `#ending` since the last call took them. */
  #endingGroup: EndingGroup | undefined;
  #renewing: Renewing[] = [];
  #scheduled = false;
  /** Calls sent so far; the one that holds the next requests back, and when it was sent (0: none). */
  #calls = 0;
  #holding = 0;
  #outSince = 0;
  /** Sends what is held back if the call that is out takes too long. */
  #holdTimer: NodeJS.Timeout | undefined;
  /** Sends the give-backs that waited `givebackWaitMs` for a call of requests and saw none. */
  #rideTimer: NodeJS.Timeout | undefined;
  /** Those give-backs waited long enough: the next send takes them, with requests or without. */
  #givebacksDue = false;
  /** A deadline per script call, not per request: a call that times out fails every request in it. */
  readonly #deadlines: StoreDeadlines;
  /** Calls given up that Redis has not answered yet: it is away or frozen, and will run them when it is back. */
  #late = 0;
  /** Requests that ended whose slots were not given back (their call never ran): sent again once Redis answers. */
  #unreturned: Ending[] = [];

  readonly #givebackWaitMs: number;

  /** `prefix`: the gateway's Redis prefix (e.g. `switchyard:`). */
  constructor(redis: Redis, prefix: string, options: RedisLimitStoreOptions = {}) {
    // defineCommand sends EVALSHA, and the script itself only when Redis does not have it yet.
    if (!(batchScriptName in redis)) redis.defineCommand(batchScriptName, { lua: BATCH });
    this.#redis = redis as Redis & Record<string, ScriptCall>;
    this.#prefix = `${prefix}limits:${DATA_VERSION}:`;
    this.#deadlines = new StoreDeadlines(options.timeoutMs ?? 1_000);
    this.#givebackWaitMs = options.givebackWaitMs ?? GIVEBACK_WAIT_MS;
  }

  /** The Redis key of a counter: the same string each time (the counters' names are few), so nothing is joined or hashed anew per request. */
  readonly #keyOf = (key: string): string => {
    let prefixed = this.#keys.get(key);
    if (prefixed === undefined) {
      if (this.#keys.size >= MAX_KEYS) this.#keys.clear();
      this.#keys.set(key, (prefixed = this.#prefix + key));
    }
    return prefixed;
  };

  acquire(checks: readonly LimitCheck[], leaseId: string, leaseMs: number): Promise<AcquireResult> {
    return new Promise((resolve, reject) => {
      this.#asking.push({ checks, leaseId, leaseMs, resolve, reject });
      this.#schedule();
    });
  }

  /** The promise is shared by the give-backs that go in the same calls. */
  finish(adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string): Promise<void> {
    // A request's tokens nearly always move: the array is copied only when one does not.
    const moving = adjustments.every(moves) ? adjustments : adjustments.filter(moves);
    if (moving.length === 0 && leaseKeys.length === 0) return RESOLVED;
    const group = (this.#endingGroup ??= new EndingGroup());
    group.joined();
    this.#ending.push({ adjustments: moving, leaseKeys, leaseId, group });
    this.#schedule();
    return group.done;
  }

  /** Renewals go the way requests do, in the next call: one path into the script, so its code sees one kind of call. */
  renew(leases: ReadonlyArray<{ key: string; leaseId: string }>, leaseMs: number): Promise<void> {
    if (leases.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#renewing.push({ leases, leaseMs, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // After this turn's I/O callbacks: every request that arrived in it joins the call.
    setImmediate(() => {
      this.#scheduled = false;
      // A call is out: these go when it comes back, or once it has been out too long.
      const outFor = this.#outSince === 0 ? Infinity : Date.now() - this.#outSince;
      if (outFor >= HOLD_BACK_MS) this.#sendWaiting();
      else if (this.#holdTimer === undefined) this.#holdTimer = setTimeout(() => this.#heldTooLong(), HOLD_BACK_MS - outFor).unref();
    });
  }

  #heldTooLong(): void {
    this.#holdTimer = undefined;
    this.#schedule();
  }

  #givebacksWaited(): void {
    this.#rideTimer = undefined;
    this.#givebacksDue = true;
    this.#schedule();
  }

  #sendWaiting(): void {
    const status = this.#redis.status;
    if (this.#late > 0 || AWAY.has(status)) {
      // Redis is away, or has not answered a call given up: a call sent now would only wait in
      // ioredis and run when Redis is back, taking slots for requests long since let in or refused.
      // The requests asking (and renewals) are told at once; the slots of those that ended are sent back still.
      const error = new Error(
        this.#late > 0 ? 'the limits store has not answered a call that timed out' : `the limits store is not connected (${status})`,
      );
      for (const request of this.#asking.splice(0)) request.reject(error);
      for (const renewal of this.#renewing.splice(0)) renewal.reject(error);
    } else if (this.#unreturned.length > 0) {
      this.#ending.unshift(...this.#unreturned.splice(0));
    }
    if (this.#asking.length === 0 && this.#renewing.length === 0 && !this.#givebacksDue) {
      // Only give-backs: they wait (a while at most) for the next requests' call.
      if (this.#ending.length > 0) this.#rideTimer ??= setTimeout(() => this.#givebacksWaited(), this.#givebackWaitMs);
      return;
    }
    this.#givebacksDue = false;
    // The give-backs waiting go in this call: the wait for the next ones starts with them.
    if (this.#rideTimer !== undefined) {
      clearTimeout(this.#rideTimer);
      this.#rideTimer = undefined;
    }
    // The give-backs waiting all go now: those that end from here on are a group of their own.
    this.#endingGroup = undefined;
    while (this.#asking.length > 0 || this.#ending.length > 0 || this.#renewing.length > 0)
      this.#send(this.#ending.splice(0, MAX_BATCH), this.#asking.splice(0, MAX_BATCH), this.#renewing.splice(0, MAX_BATCH));
  }

  #send(ending: Ending[], asking: Asking[], renewing: Renewing[]): void {
    // Only a call that admits requests holds the next ones back: a call that only gives back (a
    // request that ended) or renews must not delay the next request of a lone client.
    const holds = asking.length > 0;
    const call = ++this.#calls;
    if (holds) {
      this.#holding = call;
      this.#outSince = Date.now();
    }
    const back = () => {
      // The call holding the others back is back: what waited for it goes now.
      if (holds && this.#holding === call) {
        this.#holding = 0;
        this.#outSince = 0;
        clearTimeout(this.#holdTimer);
        this.#holdTimer = undefined;
        this.#sendWaiting();
      }
    };
    let sent: Promise<string>;
    try {
      sent = this.#batch(asking[0]?.leaseMs ?? renewing[0]?.leaseMs ?? 0, ending, asking, renewing);
    } catch (error) {
      // Thrown before it went out: a call that failed, whose give-backs are sent again.
      sent = Promise.reject(error);
    }
    // Callbacks, not async functions: a call's answer reaches its requests without a promise of
    // the store's own in between (hot-path rule 2, docs/architecture.md#hot-path-rules).
    this.#deadlines.watch(
      sent,
      (answer) => {
        try {
          answered(ending, asking, renewing, answer);
        } finally {
          back();
        }
      },
      (error) => {
        try {
          for (const request of ending) request.group?.failed(error);
          for (const request of asking) request.reject(error);
          for (const renewal of renewing) renewal.reject(error);
          this.#gaveUp(sent, ending, asking);
        } finally {
          back();
        }
      },
    );
  }

  /** Sends a batch (redis-limit-scripts.ts, redis-limit-batch.ts): each counter once, however many requests meet it. */
  #batch(leaseMs: number, ending: readonly Ending[], asking: readonly Asking[], renewing: readonly Renewing[]): Promise<string> {
    const batch = new RedisLimitBatch(this.#keyOf);
    batch.ending(ending.length);
    for (const { adjustments, leaseKeys, leaseId } of ending) batch.ended(adjustments, leaseKeys, leaseId);
    batch.asking(asking.length);
    for (const { checks, leaseId } of asking) batch.ask(checks, leaseId);
    let leases = 0;
    for (const renewal of renewing) leases += renewal.leases.length;
    batch.renewing(leases);
    for (const renewal of renewing) for (const { key, leaseId } of renewal.leases) batch.renew(key, leaseId);
    const { keys } = batch;
    return this.#redis[batchScriptName]!(keys.length, ...keys, batch.numbers(leaseMs), batch.leaseIds()) as Promise<string>;
  }

  /**
   * A call that failed or timed out may still run: ioredis keeps it while Redis is away (its offline
   * queue) or frozen (the socket), and sends it again after a reconnect. The slots it would take
   * are given back right behind it on the same connection, so the give-back runs after it whichever
   * way it goes; and no request is sent until Redis answers it. If it never ran, the slots of the
   * requests that ended in it are still taken: they go again once Redis answers.
   */
  #gaveUp(sent: Promise<unknown>, ending: readonly Ending[], asking: readonly Asking[]): void {
    const taken: Ending[] = [];
    for (const { checks, leaseId } of asking) {
      const leaseKeys = checks.filter((check) => check.kind === 'concurrency').map((check) => check.key);
      if (leaseKeys.length > 0) taken.push({ adjustments: [], leaseKeys, leaseId, group: undefined });
    }
    if (taken.length > 0) this.#send(taken, [], []);
    this.#late += 1;
    sent.then(
      () => {
        this.#late -= 1;
      },
      () => {
        this.#late -= 1;
        for (const { leaseKeys, leaseId } of ending) {
          if (leaseKeys.length === 0) continue;
          if (this.#unreturned.length >= MAX_UNRETURNED) this.#unreturned.shift();
          this.#unreturned.push({ adjustments: [], leaseKeys, leaseId, group: undefined });
        }
      },
    );
  }
}

/** Hands each request of a call its part of the script's answer (redis-limit-scripts.ts). */
function answered(ending: readonly Ending[], asking: readonly Asking[], renewing: readonly Renewing[], text: string): void {
  for (const request of ending) request.group?.answered();
  for (const renewal of renewing) renewal.resolve();
  if (asking.length === 0) return;
  const answer = JSON.parse(`[${text}]`) as number[];
  let at = 0;
  for (const request of asking) {
    const ok = answer[at]!;
    const retry = answer[at + 1]!;
    const refusedCount = answer[at + 2]!;
    const refused = refusedCount === 0 ? NONE_REFUSED : answer.slice(at + 3, at + 3 + refusedCount);
    at += 3 + refusedCount;
    const readings: LimitReading[] = [];
    for (let index = 0; index < request.checks.length; index += 1, at += 2)
      readings.push({ remaining: answer[at]!, resetMs: answer[at + 1]! });
    request.resolve(ok === 1 ? { ok: true, readings } : { ok: false, refused, retryAfterMs: retry === -1 ? Infinity : retry, readings });
  }
}
