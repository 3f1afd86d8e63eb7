import {
  estimateCutOutputTokens,
  GatewayError,
  type CutStream,
  type RateLimitReading,
  type RateLimitState,
  type Usage,
  storeUnavailable,
} from '../canonical/index.js';
import type { Admission, AdmissionRequest, AdmissionControl } from './admit-stage.js';
import type { AppliedLimits, LimitRules, LimitSubject } from './limit-rules.js';
import { LimitPlanner } from './limit-planner.js';
import type { AcquireResult, LimitCheck, LimitStore, RateAdjustment } from './limit-store.js';
import { SlotQueue } from './slot-queue.js';

export type { LimitRules, LimitSet, KeyLimits } from './limit-rules.js';

export interface LimitStageOptions {
  rules: LimitRules;
  store: LimitStore;
  /** The tokens a request is counted at before the call: its input estimate plus its output allowance. */
  estimateTokens(request: AdmissionRequest): number;
  /** How long a concurrency slot outlives a process that died holding it, in ms. Default 60 000. */
  leaseMs?: number;
  /** When the store cannot be reached (a call failed, or took longer than the store's own timeout): `'open'` admits without limits, `'closed'` refuses with 503. Default `'open'`. */
  whenStoreDown?: 'open' | 'closed';
  /** Told of every failed store call (logged by the gateway, throttled). */
  onStoreError?: (error: unknown) => void;
}

/** What the limits did since the start, for metrics. */
export interface LimitCounters {
  /** Requests refused with a 429 by a limit. */
  refused: number;
  /** Store calls that failed or timed out. */
  storeFailures: number;
  /** Requests waiting for a concurrency slot now. */
  waiting: number;
}

export interface LimitStage extends AdmissionControl {
  counters(): LimitCounters;
  /** Resolves once the leases and token counters given back so far reached the store (a shutdown waits for it). */
  settled(): Promise<void>;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** For requests and for tokens, the reading of the tightest limit (fewest left), as the providers' headers give it. */
function stateOf(applied: AppliedLimits, result: AcquireResult): RateLimitState | undefined {
  let requests: RateLimitReading | undefined;
  let tokens: RateLimitReading | undefined;
  const { subjects, checks } = applied;
  const { readings } = result;
  for (let index = 0; index < subjects.length; index += 1) {
    const what = subjects[index]!.what;
    const reading = readings[index];
    if (what === 'concurrency' || reading === undefined) continue;
    const best = what === 'requests' ? requests : tokens;
    if (best !== undefined && best.remaining <= reading.remaining) continue;
    const chosen = { limit: checks[index]!.limit, remaining: reading.remaining, resetMs: reading.resetMs };
    if (what === 'requests') requests = chosen;
    else tokens = chosen;
  }
  if (requests === undefined) return tokens === undefined ? undefined : { tokens };
  return tokens === undefined ? { requests } : { requests, tokens };
}

/** The 429 for the first limit that refused, in words a user can act on. */
function refusal(
  subject: LimitSubject,
  check: LimitCheck,
  retryAfterMs: number,
  rateLimit: RateLimitState | undefined,
  waitedMs: number,
): GatewayError {
  const common = { code: 'RATE_LIMITED' as const, ...(rateLimit === undefined ? {} : { rateLimit }) };
  if (subject.what === 'concurrency') {
    const waited = waitedMs > 0 ? ` It waited ${waitedMs} ms for a slot.` : '';
    return new GatewayError({
      ...common,
      message: `Concurrency limit reached for ${subject.scope}: ${check.limit} request${check.limit === 1 ? '' : 's'} at once.${waited} Retry when one has finished.`,
      retryAfter: 1,
    });
  }
  if (retryAfterMs === Infinity) {
    const allowed =
      check.burst < check.limit
        ? `${check.burst} tokens allowed at once (of ${check.limit} per minute)`
        : `${check.limit} tokens per minute allowed`;
    return new GatewayError({
      ...common,
      message: `Request too large for ${subject.scope}: it is counted at ${check.cost} tokens (input estimate plus its output allowance), more than the ${allowed}. Lower max_tokens or shorten the input.`,
      retryable: false,
    });
  }
  const unit = subject.what === 'requests' ? 'requests' : 'tokens';
  const counted = subject.what === 'tokens' ? ` This request is counted at ${check.cost} tokens.` : '';
  return new GatewayError({
    ...common,
    message: `Rate limit reached for ${subject.scope}: ${check.limit} ${unit} per minute.${counted} Retry in ${seconds(retryAfterMs)} s.`,
    retryAfter: retryAfterMs / 1000,
  });
}

const limitsUnavailable = (cause: unknown) => storeUnavailable('LIMITS_UNAVAILABLE', cause);

/** Tokens a finished request really used; its reservation stands for what is unknown. */
function usedTokens(reserved: number, usage: Usage | undefined, cut: CutStream | undefined): number {
  if (cut !== undefined) {
    const input = cut.startUsage?.inputTokens;
    return input === undefined ? reserved : input + estimateCutOutputTokens(cut);
  }
  // Nothing was delivered: providers do not count a failed request.
  if (usage === undefined) return 0;
  if (usage.inputTokens === undefined || usage.outputTokens === undefined) return reserved;
  return usage.inputTokens + usage.outputTokens;
}

/**
 * Requests, tokens and concurrency per key, per key and model, and per model: every limit a
 * request meets is checked and taken at once in the store (all or none) before the call; tokens
 * are reserved at the request's estimate and settled to its real usage after; concurrency slots
 * are leases renewed while the request runs and given back when it ends, however it ends.
 */
export function withLimits(inner: AdmissionControl, options: LimitStageOptions): LimitStage {
  const { rules, store } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const failOpen = (options.whenStoreDown ?? 'open') === 'open';
  const onStoreError = options.onStoreError ?? (() => undefined);
  const planner = new LimitPlanner(rules);
  const queue = new SlotQueue();
  const counters = { refused: 0, storeFailures: 0 };
  /** Concurrency leases held in this process, renewed together. */
  const held = new Map<string, readonly string[]>();
  let renewal: NodeJS.Timeout | undefined;
  /**
   * Give-backs on their way to the store, each with the lease keys of its requests, to wake what
   * waits for them once it lands. A store may give the requests that go together one promise: they
   * share its entry.
   */
  const finishing = new Map<Promise<void>, Array<readonly string[]>>();

  const storeFailed = (error: unknown) => {
    counters.storeFailures += 1;
    onStoreError(error);
  };

  const renewHeld = () => {
    if (held.size === 0) {
      clearInterval(renewal);
      renewal = undefined;
      return;
    }
    const leases = [...held].flatMap(([leaseId, keys]) => keys.map((key) => ({ key, leaseId })));
    void Promise.resolve()
      .then(() => store.renew(leases, leaseMs))
      .catch(storeFailed);
  };

  const hold = (leaseId: string, keys: readonly string[]) => {
    held.set(leaseId, keys);
    renewal ??= setInterval(renewHeld, leaseMs / 3).unref();
  };

  /** Wakes the queued requests waiting for one of `leaseKeys`: they try at once. */
  const wake = (leaseKeys: readonly string[]) => {
    for (const key of leaseKeys) queue.released(key);
  };

  /** Moves token counters and gives leases back; a queued request waiting for one of them tries at once. */
  const finish = (adjustments: readonly RateAdjustment[], leaseKeys: readonly string[], leaseId: string) => {
    let finished: void | Promise<void>;
    try {
      finished = store.finish(adjustments, leaseKeys, leaseId);
    } catch (error) {
      storeFailed(error);
      return;
    }
    if (!(finished instanceof Promise)) {
      wake(leaseKeys);
      return;
    }
    let waking = finishing.get(finished);
    if (waking === undefined) {
      const landing = finished;
      const keys: Array<readonly string[]> = [];
      waking = keys;
      finishing.set(landing, keys);
      const settle = () => {
        finishing.delete(landing);
        for (const each of keys) wake(each);
      };
      // One `then` for both outcomes, and one for every request that shares the promise: hot-path rule 2 (docs/architecture.md#hot-path-rules).
      landing.then(settle, (error: unknown) => {
        storeFailed(error);
        settle();
      });
    }
    if (leaseKeys.length > 0) waking.push(leaseKeys);
  };

  const admitted = (request: AdmissionRequest, applied: AppliedLimits, result: AcquireResult, admission: Admission): Admission => {
    const rateLimit = stateOf(applied, result);
    const { leaseKeys, tokenChecks } = applied;
    if (leaseKeys.length > 0) hold(request.requestId, leaseKeys);
    const release = (usage: Usage | undefined, cut?: CutStream) => {
      admission.release(usage, cut);
      if (leaseKeys.length > 0) held.delete(request.requestId);
      const adjustments: RateAdjustment[] = [];
      for (let index = 0; index < tokenChecks.length; index += 1) {
        const check = tokenChecks[index]!;
        adjustments.push({
          key: check.key,
          limit: check.limit,
          periodMs: check.periodMs,
          delta: usedTokens(check.cost, usage, cut) - check.cost,
        });
      }
      if (adjustments.length > 0 || leaseKeys.length > 0) finish(adjustments, leaseKeys, request.requestId);
    };
    // Hot-path rule 1 (docs/architecture.md#hot-path-rules).
    return rateLimit === undefined ? { release } : { rateLimit, release };
  };

  /** Admits without limits (the store is down and the gateway fails open), or refuses with 503. */
  const storeDown = async (request: AdmissionRequest, error: unknown): Promise<Admission> => {
    storeFailed(error);
    if (!failOpen) throw limitsUnavailable(error);
    return inner.admit(request);
  };

  const enter = async (request: AdmissionRequest, applied: AppliedLimits, first: AcquireResult): Promise<Admission> => {
    let result = first;
    let waitedMs = 0;
    const onlyConcurrency = (answer: AcquireResult) =>
      !answer.ok && answer.refused.every((index) => applied.checks[index]!.kind === 'concurrency');
    if (!result.ok && applied.queueMs > 0 && onlyConcurrency(result)) {
      const startedAt = Date.now();
      const key = applied.checks[(result as Extract<AcquireResult, { ok: false }>).refused[0]!]!.key;
      let failure: unknown;
      await queue.waitFor(
        key,
        startedAt + applied.queueMs,
        async () => {
          try {
            result = await store.acquire(applied.checks, request.requestId, leaseMs);
          } catch (error) {
            failure = error;
            return true;
          }
          return result.ok || !onlyConcurrency(result);
        },
        request.onClientGone,
      );
      if (failure !== undefined) return storeDown(request, failure);
      waitedMs = Date.now() - startedAt;
    }
    if (!result.ok) {
      counters.refused += 1;
      const index = result.refused[0]!;
      throw refusal(applied.subjects[index]!, applied.checks[index]!, result.retryAfterMs, stateOf(applied, result), waitedMs);
    }
    return pass(request, applied, result);
  };

  /** Refused by a stage further in: its slots and tokens are given back; the request still counts. */
  const giveBack = (request: AdmissionRequest, applied: AppliedLimits) => {
    const refunds = applied.tokenChecks.map((check) => ({
      key: check.key,
      limit: check.limit,
      periodMs: check.periodMs,
      delta: -check.cost,
    }));
    finish(refunds, applied.leaseKeys, request.requestId);
  };

  /** The limits let the request in: the stages further in decide next. */
  const pass = (request: AdmissionRequest, applied: AppliedLimits, result: AcquireResult): Admission | Promise<Admission> => {
    let admission: Admission | Promise<Admission>;
    try {
      admission = inner.admit(request);
    } catch (error) {
      giveBack(request, applied);
      throw error;
    }
    if (!(admission instanceof Promise)) return admitted(request, applied, result, admission);
    return admission.then(
      (ready) => admitted(request, applied, result, ready),
      (error: unknown) => {
        giveBack(request, applied);
        throw error;
      },
    );
  };

  return {
    admit(request) {
      const applied = planner.plan(request.caller, request.model, () => options.estimateTokens(request));
      if (applied.checks.length === 0) return inner.admit(request);
      let acquired: AcquireResult | Promise<AcquireResult>;
      try {
        acquired = store.acquire(applied.checks, request.requestId, leaseMs);
      } catch (error) {
        return storeDown(request, error);
      }
      if (acquired instanceof Promise) {
        return acquired.then(
          // Admitted: no queue to wait in, so no async step of its own.
          (result) => (result.ok ? pass(request, applied, result) : enter(request, applied, result)),
          (error: unknown) => storeDown(request, error),
        );
      }
      // In memory, an admitted request needs no promise unless an inner stage does: hot-path rule 2.
      return acquired.ok ? pass(request, applied, acquired) : enter(request, applied, acquired);
    },
    counters: () => ({ ...counters, waiting: queue.waiting }),
    async settled() {
      await Promise.allSettled([...finishing.keys()]);
    },
  };
}
