import type { Caller } from '../canonical/index.js';
import { limitsFor, OPTIONS_KEY, type AppliedLimits, type LimitRules } from './limit-rules.js';
import type { LimitCheck } from './limit-store.js';

/** Callers remembered at most; past it the cache starts over (keys are few, ids of a flood are not). */
const MAX_CALLERS = 10_000;

/** A caller's limits as the cache knows them: the plan is valid while these are unchanged. */
interface CallerPlans {
  readonly keyName: string | undefined;
  readonly limits: Caller['limits'];
  /** Model id → the limits it meets, with token costs still to fill in. */
  readonly byModel: Map<string, AppliedLimits>;
}

const sameLimits = (a: Caller['limits'], b: Caller['limits']) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.requestsPerMinute === b.requestsPerMinute &&
    a.tokensPerMinute === b.tokensPerMinute &&
    a.concurrency === b.concurrency);

/**
 * `limitsFor` once per caller and model, not once per request: the counters' names, scopes and
 * limits are worked out the first time and reused (the same strings each time, so the stores'
 * lookups hash nothing new), and a request only fills in its token estimate. A request that meets
 * no token limit gets the cached plan itself: no allocation at all.
 */
export class LimitPlanner {
  readonly #rules: LimitRules;
  readonly #callers = new Map<string, CallerPlans>();

  constructor(rules: LimitRules) {
    this.#rules = rules;
  }

  plan(caller: Caller, model: string, estimatedTokens: () => number): AppliedLimits {
    const plan = this.#cached(caller, model);
    if (plan.tokenChecks.length === 0) return plan;
    const tokens = estimatedTokens();
    const checks: LimitCheck[] = [];
    const tokenChecks: LimitCheck[] = [];
    for (const check of plan.checks) {
      if (!plan.tokenChecks.includes(check)) {
        checks.push(check);
        continue;
      }
      // Hot-path rule 1 (docs/architecture.md#hot-path-rules).
      const priced: LimitCheck = {
        key: check.key,
        kind: check.kind,
        limit: check.limit,
        periodMs: check.periodMs,
        cost: tokens,
        burst: check.burst,
      };
      checks.push(priced);
      tokenChecks.push(priced);
    }
    return { checks, subjects: plan.subjects, leaseKeys: plan.leaseKeys, tokenChecks, queueMs: plan.queueMs };
  }

  #cached(caller: Caller, model: string): AppliedLimits {
    const id = caller.keyId ?? OPTIONS_KEY;
    let plans = this.#callers.get(id);
    if (plans === undefined || plans.keyName !== caller.keyName || !sameLimits(plans.limits, caller.limits)) {
      if (this.#callers.size >= MAX_CALLERS) this.#callers.clear();
      plans = { keyName: caller.keyName, limits: caller.limits, byModel: new Map() };
      this.#callers.set(id, plans);
    }
    let plan = plans.byModel.get(model);
    if (plan === undefined) {
      // Token checks carry cost 0 here; `plan` fills in each request's estimate.
      plan = limitsFor(this.#rules, caller, model, () => 0);
      plans.byModel.set(model, plan);
    }
    return plan;
  }
}
