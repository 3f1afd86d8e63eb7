import { GatewayError, type UpstreamAttempt } from '../canonical/index.js';
import type { CooldownEvent, RoutingCounters, RoutingEvents } from './routing-events.js';
import { upstreamSignal } from '../providers/transport/cancellation.js';
import { cooldownStoreDeadline } from './cooldown-store-deadline.js';
import { pause } from './pause.js';
import { trackedStream } from './tracked-stream.js';
import type { ProviderContext } from '../providers/types.js';
import { callModelOnce, type CallControl, type CallStage, type StreamCallControl } from './call-model.js';
import type { CooldownStore, Standing } from './cooldown.js';
import type { ResolvedDeployment } from './deployment.js';
import { DeploymentLoad, pickDeployment } from './pick-deployment.js';
import type { ModelTable, ResolvedModel } from './resolve-model.js';
import type { Route } from './resolve-route.js';
import { backoffMs, failureActionOf, resolveRetries, type FailureAction, type ResolvedRetries, type RetryOptions } from './retry-policy.js';

export type { CooldownEvent, RoutingCounters, RoutingEvents } from './routing-events.js';

/** The routing "call" stage: deployments, retries, fallbacks and cooldowns, with hooks for metrics. */
export interface RoutingCall extends CallStage, RoutingEvents {
  /** Requests in flight (for `least-busy` models) and recent latency, per deployment, in this process. */
  readonly load: DeploymentLoad;
  /** Resolves once the cooldown writes begun so far are done (a shutdown waits for them). */
  settled(): Promise<void>;
}

export interface RoutingCallOptions {
  models: ModelTable;
  /** The gateway's retries; a model's own override them. */
  retries?: RetryOptions | undefined;
  /** Where cooldowns are kept; undefined: no cooldowns. */
  cooldowns?: CooldownStore | undefined;
  /** How long a cooldown store call may take before it is skipped (every deployment then counts as in service). Default 250. */
  storeTimeoutMs?: number;
  /** A cooldown store call failed (Redis down): the request goes on as if every deployment were in service. */
  onStoreError?: (error: unknown) => void;
  /** How long refused credentials or a spent quota take a deployment out. Default 30 000. */
  credentialCooldownMs?: number;
  /** The call of one deployment. Default: `callModelOnce`. */
  once?: CallStage;
  random?: () => number;
}

/** An attempt's outcome for the loop: the value, or why it failed. */
type ModelOutcome<T> =
  | { value: T }
  | { error: GatewayError; action: FailureAction }
  | { coolingFor: number; deployment: ResolvedDeployment };

/** The standings of deployments nobody asked about (no cooldowns, or nowhere else to go): none. */
const NO_STANDINGS: ReadonlyMap<string, Standing> = new Map();

const abortError = () => new GatewayError({ code: 'REQUEST_ABORTED', message: 'The request was cancelled.' });

/** Adds `listener` to `listeners`; returns its removal. */
function subscribe<T>(listeners: T[], listener: T): () => void {
  listeners.push(listener);
  return () => {
    const index = listeners.indexOf(listener);
    if (index !== -1) listeners.splice(index, 1);
  };
}

/** The route as one deployment of `model` takes it (the route itself for the route's own first deployment). */
function routeFor(route: Route, model: ResolvedModel, deployment: ResolvedDeployment): Route {
  if (model === route.model && deployment === model.deployments[0]) return route;
  return {
    ...route,
    model: { ...model, adapter: deployment.adapter, upstreamModel: deployment.upstreamModel, providerId: deployment.providerId },
  };
}

/**
 * The "call" stage of a gateway with deployments, retries and fallbacks. A model's attempt goes to
 * a deployment in service chosen by its strategy; a retryable failure (connect errors, 408, 429,
 * 5xx, 529, an error in a stream before its first output) moves to another deployment at once, or
 * retries the same one after an exponential backoff with jitter (at least the upstream's
 * `retry-after` when that is short; a long one takes the deployment out instead). When the model's
 * attempts are spent, its fallback models are tried in order; a context-window overflow goes to its
 * `contextFallback`. Nothing is retried once the client left or the answer was committed, and a
 * stream is only handed over once it reached its first output, so no output is ever sent twice.
 */
export function createRoutingCall(options: RoutingCallOptions): RoutingCall {
  const { models, cooldowns } = options;
  const once = options.once ?? callModelOnce;
  const random = options.random ?? Math.random;
  const storeTimeoutMs = options.storeTimeoutMs ?? 250;
  const credentialCooldownMs = options.credentialCooldownMs ?? 30_000;
  const onStoreError = options.onStoreError ?? (() => undefined);
  const load = new DeploymentLoad();
  const counters: RoutingCounters = { attempts: 0, failedAttempts: 0, retries: 0, fallbacks: 0, cooldowns: 0 };
  const attemptListeners: ((attempt: UpstreamAttempt) => void)[] = [];
  const cooldownListeners: ((event: CooldownEvent) => void)[] = [];
  const retriesByModel = new Map<string, ResolvedRetries>();
  const retriesOf = (model: ResolvedModel) => {
    let retries = retriesByModel.get(model.id);
    if (retries === undefined) retriesByModel.set(model.id, (retries = resolveRetries(options.retries, model.retries)));
    return retries;
  };

  /** Cooldown writes under way, which a shutdown lets finish. */
  const writing = new Set<Promise<void>>();
  const write = (pending: Promise<void>) => {
    const done: Promise<void> = pending.catch(onStoreError).finally(() => writing.delete(done));
    writing.add(done);
  };

  const emitCooldown = (event: CooldownEvent) => {
    if (event.state === 'cooling') counters.cooldowns += 1;
    for (const listener of cooldownListeners) listener(event);
  };

  const standingsOf = (model: ResolvedModel): ReadonlyMap<string, Standing> | Promise<ReadonlyMap<string, Standing>> => {
    if (cooldowns === undefined) return NO_STANDINGS;
    let answer: ReadonlyMap<string, Standing> | Promise<ReadonlyMap<string, Standing>>;
    try {
      answer = cooldowns.standings(model.deployments.map((deployment) => deployment.name));
    } catch (error) {
      onStoreError(error);
      return NO_STANDINGS;
    }
    // Known at once (cooldowns in this process): no timer, no promise (hot-path rules 2 and 3, docs/architecture.md#hot-path-rules).
    if (!(answer instanceof Promise)) return answer;
    return cooldownStoreDeadline(answer, storeTimeoutMs).catch((error: unknown) => {
      onStoreError(error);
      return NO_STANDINGS;
    });
  };

  /** Counts a deployment's failure in the background (the request goes on without waiting). */
  const noteFailure = (deployment: ResolvedDeployment, coolForMs: number | undefined) => {
    if (cooldowns === undefined) return;
    write(
      cooldownStoreDeadline(cooldowns.failed(deployment.name, coolForMs), storeTimeoutMs).then((forMs) => {
        if (forMs > 0) emitCooldown({ deployment: deployment.name, state: 'cooling', forMs });
      }),
    );
  };

  const noteRecovery = (deployment: ResolvedDeployment) => {
    if (cooldowns === undefined) return;
    write(
      cooldownStoreDeadline(cooldowns.recovered(deployment.name), storeTimeoutMs).then(() =>
        emitCooldown({ deployment: deployment.name, state: 'recovered' }),
      ),
    );
  };

  /** Counts an attempt that ended and tells the request (its ledger rows) and the listeners (metrics). */
  const reportAttempt = (
    context: ProviderContext,
    control: CallControl | undefined,
    attempt: number,
    model: ResolvedModel,
    deployment: ResolvedDeployment,
    startedAt: number,
    error?: GatewayError,
  ) => {
    counters.attempts += 1;
    if (error !== undefined) counters.failedAttempts += 1;
    const upstream: UpstreamAttempt = {
      requestId: context.requestId,
      attempt,
      model: model.id,
      deployment: deployment.name,
      provider: deployment.providerId,
      upstreamModel: deployment.upstreamModel,
      startedAt,
      durationMs: Date.now() - startedAt,
      error: error === undefined ? undefined : { status: error.status, code: error.code },
    };
    control?.onAttempt?.(upstream);
    for (const listener of attemptListeners) listener(upstream);
  };

  /** What a bug (not a GatewayError) is counted as. */
  const internalError = () => new GatewayError({ code: 'INTERNAL_ERROR', message: 'unexpected error' });

  /**
   * A route's value. A model with one deployment and nowhere else to go (no fallbacks, no
   * `contextFallback`, not `least-busy`) — most models — has nothing to choose before its first
   * attempt: that attempt is one promise rather than the loop's three async frames (hot-path rule
   * 2, docs/architecture.md#hot-path-rules), and only its failure goes on to the loop (retries).
   */
  function run<T>(
    route: Route,
    context: ProviderContext,
    control: StreamCallControl | CallControl | undefined,
    call: (route: Route) => Promise<T>,
    track: (value: T, ended: () => void) => T,
  ): Promise<T> {
    const head = route.model;
    if (head.deployments.length !== 1 || head.fallbacks.length > 0 || head.contextFallback !== undefined || head.strategy === 'least-busy')
      return loop(route, context, control, call, track, undefined);
    const deployment = head.deployments[0]!;
    const startedAt = Date.now();
    let pending: Promise<T>;
    try {
      pending = call(route);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      (value) => {
        reportAttempt(context, control, 1, head, deployment, startedAt);
        load.observed(deployment.name, Date.now() - startedAt);
        return value;
      },
      (error: unknown) => {
        const failure = GatewayError.isInstance(error) ? error : undefined;
        reportAttempt(context, control, 1, head, deployment, startedAt, failure ?? internalError());
        if (failure === undefined) throw error;
        return loop(route, context, control, call, track, failure);
      },
    );
  }

  /**
   * Deployments, retries and fallbacks, in order until one answers. `failedFirst`: the route's
   * model's first attempt (on its only deployment) was made already, and failed with it.
   */
  async function loop<T>(
    route: Route,
    context: ProviderContext,
    control: StreamCallControl | CallControl | undefined,
    call: (route: Route) => Promise<T>,
    track: (value: T, ended: () => void) => T,
    failedFirst: GatewayError | undefined,
  ): Promise<T> {
    const abort = upstreamSignal(context);
    const committed = () => (control as StreamCallControl | undefined)?.committed?.() === true;
    let attempt = failedFirst === undefined ? 0 : 1;
    let lastError: GatewayError | undefined;

    const report = (model: ResolvedModel, deployment: ResolvedDeployment, startedAt: number, error?: GatewayError) =>
      reportAttempt(context, control, ++attempt, model, deployment, startedAt, error);

    /** One attempt on one deployment: its value, or its error (after counting it). */
    const attemptOn = async (
      model: ResolvedModel,
      deployment: ResolvedDeployment,
      standing: Standing | undefined,
    ): Promise<{ value: T } | { error: GatewayError }> => {
      const startedAt = Date.now();
      const tracked = model.strategy === 'least-busy';
      if (tracked) load.started(deployment.name);
      let value: T;
      try {
        value = await call(routeFor(route, model, deployment));
      } catch (error) {
        if (tracked) load.ended(deployment.name);
        // Not a GatewayError: a bug, not an upstream's state; the endpoint answers it as one.
        const failure = GatewayError.isInstance(error) ? error : undefined;
        report(model, deployment, startedAt, failure ?? internalError());
        if (failure === undefined) throw error;
        return { error: failure };
      }
      report(model, deployment, startedAt);
      load.observed(deployment.name, Date.now() - startedAt);
      if (standing !== undefined) noteRecovery(deployment);
      return { value: tracked ? track(value, () => load.ended(deployment.name)) : value };
    };

    /** The model's attempts: its deployments in service, then retries after a backoff. */
    const tryModel = async (model: ResolvedModel, hasAlternatives: boolean): Promise<ModelOutcome<T>> => {
      const retries = retriesOf(model);
      const found = model.deployments.length > 1 || hasAlternatives ? standingsOf(model) : NO_STANDINGS;
      const standings = found instanceof Promise ? await found : found;
      const inService =
        standings.size === 0
          ? model.deployments
          : model.deployments.filter((deployment) => standings.get(deployment.name)?.state !== 'cooling');
      if (inService.length === 0) {
        // Every deployment is out: the one back soonest is the last resort, should nothing else answer.
        let soonest = model.deployments[0]!;
        let soonestMs = Number.POSITIVE_INFINITY;
        for (const deployment of model.deployments) {
          const standing = standings.get(deployment.name);
          const forMs = standing?.state === 'cooling' ? standing.forMs : 0;
          if (forMs < soonestMs) [soonest, soonestMs] = [deployment, forMs];
        }
        return { coolingFor: soonestMs, deployment: soonest };
      }
      const trial = standings.size === 0 ? undefined : inService.find((deployment) => standings.get(deployment.name)?.state === 'trial');
      // Made on the first failure: most requests have none.
      let excluded: Set<string> | undefined;
      let failedHere: Set<string> | undefined;
      let failure: { error: GatewayError; action: FailureAction } | undefined;
      let waitMs = 0;
      let retry = 0;
      for (let tries = 0; tries <= retries.attempts; tries++) {
        const candidates = excluded === undefined ? inService : inService.filter((deployment) => !excluded!.has(deployment.name));
        if (candidates.length === 0) break;
        const fresh = failedHere === undefined ? candidates : candidates.filter((deployment) => !failedHere!.has(deployment.name));
        // A deployment whose trial this request was handed goes first: else no one would probe it until the trial lapsed.
        const deployment =
          tries === 0 && trial !== undefined ? trial : pickDeployment(fresh.length > 0 ? fresh : candidates, model.strategy, load, random);
        if (tries > 0) {
          counters.retries += 1;
          // The same deployment again: after a backoff, and no sooner than its retry-after.
          if (fresh.length === 0) await pause(Math.max(backoffMs(retries, ++retry, random), waitMs), abort);
          if (abort.aborted || committed()) throw lastError ?? abortError();
        }
        const outcome =
          tries === 0 && failedFirst !== undefined && model === route.model
            ? { error: failedFirst }
            : await attemptOn(model, deployment, standings.get(deployment.name));
        if ('value' in outcome) return outcome;
        const { error } = outcome;
        lastError = error;
        const action = failureActionOf(error);
        failure = { error, action };
        if (action === 'final' || action === 'context' || abort.aborted) return failure;
        const retryAfterMs = error.retryAfter === undefined ? undefined : error.retryAfter * 1000;
        const tooLong = retryAfterMs !== undefined && retryAfterMs > retries.maxRetryAfterMs;
        noteFailure(deployment, action === 'elsewhere' ? credentialCooldownMs : tooLong ? retryAfterMs : undefined);
        (failedHere ??= new Set()).add(deployment.name);
        if (action === 'elsewhere' || tooLong) (excluded ??= new Set()).add(deployment.name);
        waitMs = tooLong ? 0 : (retryAfterMs ?? 0);
      }
      return failure ?? { error: lastError ?? abortError(), action: 'retry' };
    };

    const head = route.model;
    const queue: string[] = [head.id, ...head.fallbacks];
    const tried = new Set<string>();
    let lastResort: { model: ResolvedModel; deployment: ResolvedDeployment; forMs: number } | undefined;
    while (queue.length > 0) {
      const id = queue.shift()!;
      if (tried.has(id)) continue;
      tried.add(id);
      const model = id === head.id ? head : models.get(id);
      if (model === undefined || (model !== head && control?.mayCall?.(id) === false)) continue;
      if (attempt > 0 && model !== head) {
        if (abort.aborted || committed()) throw lastError ?? abortError();
        counters.fallbacks += 1;
      }
      const outcome = await tryModel(model, queue.length > 0 || model.contextFallback !== undefined);
      if ('value' in outcome) return outcome.value;
      if ('coolingFor' in outcome) {
        if (lastResort === undefined || outcome.coolingFor < lastResort.forMs)
          lastResort = { model, deployment: outcome.deployment, forMs: outcome.coolingFor };
        continue;
      }
      if (outcome.action === 'final') throw outcome.error;
      if (outcome.action === 'context') {
        const larger = model.contextFallback;
        if (larger === undefined || tried.has(larger)) throw outcome.error;
        // Only a larger model can answer now: the rest of the chain is for outages.
        queue.length = 0;
        queue.push(larger, ...(models.get(larger)?.fallbacks ?? []));
      }
    }
    // Nothing in service answered (or was in service): a cooldown is a guess, so the deployment back
    // soonest still gets one try rather than the caller a certain refusal.
    if (lastResort !== undefined && !abort.aborted && !committed() && (lastError === undefined || failureActionOf(lastError) !== 'final')) {
      const outcome = await attemptOn(lastResort.model, lastResort.deployment, { state: 'cooling', forMs: lastResort.forMs });
      if ('value' in outcome) return outcome.value;
      noteFailure(lastResort.deployment, undefined);
      throw outcome.error;
    }
    throw lastError ?? abortError();
  }

  return {
    generate(route, context, control) {
      return run(
        route,
        context,
        control,
        (target) => once.generate(target, context, control),
        (answer) => answer,
      );
    },
    stream(route, context, control) {
      return run(route, context, control, (target) => once.stream(target, context, control), trackedStream);
    },
    onAttempt: (listener) => subscribe(attemptListeners, listener),
    onCooldown: (listener) => subscribe(cooldownListeners, listener),
    counters: () => ({ ...counters }),
    load,
    async settled() {
      await Promise.allSettled([...writing]);
    },
  };
}
