// Turns checked options into the endpoints' stages: opens what they use (database, Redis,
// routing, limits, the operator's view) and wires them in order. Checking the options themselves
// is options.ts's job.
import { createKeyCheck } from '../access/authenticate-stage.js';
import { refuseUnlistedModel } from '../access/model-allowlist.js';
import type { EndpointOptions } from '../endpoints/stages.js';
import { admitEverything, type AdmissionControl } from '../limits/admit-stage.js';
import type { Logger, ProviderAdapter } from '../providers/types.js';
import { openRouting, type OpenedRouting } from '../routing/open-routing.js';
import { recordEach, type BatchedRecorder } from '../usage/record-stage.js';
import { OpenRequests } from '../pipeline/open-requests.js';
import { resolveObservability } from '../observability/resolve-observability.js';
import type { GatewayMetrics } from '../observability/gateway-metrics.js';
import { observeNothing, upstreamOutcomeOf, type UpstreamObserver } from '../observability/upstream-observer.js';
import { checkReadiness, type Probe, type Readiness } from '../observability/readiness.js';
import { openPersistence, type Persistence, type PersistenceOptions } from './persistence.js';
import { costOf, maxCostOf, type VersionedPrice } from '../catalog/cost.js';
import { withBudgets } from '../limits/budget-stage.js';
import { openBalances, type OpenedBalances } from '../limits/open-balances.js';
import { openRevocationChannel } from '../access/revocation-channel.js';
import { openLimits, type OpenedLimits } from '../limits/open-limits.js';
import { UnusualSpendWatch } from '../usage/unusual-spend-watch.js';
import type { LimitSet } from '../limits/limit-rules.js';
import type { PriceUsage } from '../usage/ledger-stage.js';
import { hasUnmeasuredInput, inputTokenBound } from '../usage/input-token-bound.js';
import { largestContextWindow } from '../routing/largest-context-window.js';
import type { ModelTable } from '../routing/resolve-model.js';
import { checkOptions, type CheckedOptions, type GatewayOptions } from './options.js';

/** Options after `resolveOptions`: what the endpoints are built from, plus what the gateway itself reads. */
export interface ResolvedGatewayOptions extends EndpointOptions {
  diagnoseBaseUrl: boolean;
  /** Every distinct adapter the models use, to close on shutdown. */
  adapters: readonly ProviderAdapter[];
  /** Stored keys and the ledger, with a `database`. */
  persistence: Persistence | undefined;
  adminKey: string | undefined;
  allowedOrigins: readonly string[];
  /** The limits stage and what it opened, when any limit is configured. */
  limits: OpenedLimits | undefined;
  /** Account balances, with `balances` on. */
  balances: OpenedBalances | undefined;
  /** The unusual-spend watch, with a database and the ledger (unless `unusualSpend: false`). */
  unusualSpend: UnusualSpendWatch | undefined;
  /** The generation requests being answered (a shutdown interrupts them; metrics count them). */
  open: OpenRequests;
  /** The gateway's Prometheus metrics, with `metrics` on. */
  metrics: GatewayMetrics | undefined;
  /** Where the "call" stage reports each upstream attempt and cooldown (metrics; nothing by default). */
  upstream: UpstreamObserver;
  /** The "record" stage's entries not yet recorded: recorded on shutdown, before the ledger closes. */
  recording: BatchedRecorder;
  /** Ends what the operator's view opened (the default request log's stdout lines). */
  closeObservability(): void;
  /** Probes the database and Redis the gateway uses (`/ready`). */
  readiness(): Promise<Readiness>;
  /** The "call" stage (deployments, retries, fallbacks, cooldowns), its counters and hooks, and what it opened. */
  routing: OpenedRouting;
}

/** Validates options once and returns a new, complete object; the caller's object is never changed. */
export function resolveOptions(options: GatewayOptions = {}): ResolvedGatewayOptions {
  const checked = checkOptions(options);
  const { logger, providers, requireApiKey, verifyKey } = checked;
  if (!requireApiKey) logger.warn({}, 'switchyard: no API keys configured; every caller is accepted');
  // Each model's price: its config's, else the catalog's (resolved with the model table).
  const prices = new Map<string, VersionedPrice>();
  for (const model of checked.modelList) if (model.price !== undefined) prices.set(model.id, model.price);
  const price = priceOf(prices);
  const persistence =
    options.database === undefined ? undefined : openPersistence(persistenceOptionsOf(options, options.database, price), logger);
  const limits = openLimitsOf(options, persistence, logger);
  const balances = persistence === undefined ? undefined : openBalancesOf(options, persistence, logger);
  const unusualSpend = persistence === undefined ? undefined : watchUnusualSpend(options, persistence, logger);
  const withKeyLimits = (inner: AdmissionControl) => (limits === undefined ? inner : limits.stage);
  const routing = openRoutingOf(options, checked, persistence, logger);
  const open = new OpenRequests();
  const observability = resolveObservability(options, {
    open: () => open.counts(),
    limits: limits === undefined ? undefined : () => limits.stage.counters(),
    ledger: persistence?.ledger === undefined ? undefined : () => persistence.ledgerCounters(),
    unusualSpend: unusualSpend === undefined ? undefined : () => unusualSpend.counts,
    price,
  });
  reportRouting(routing, observability.upstream);
  const probes: Record<string, Probe> = {};
  if (persistence !== undefined) probes.database = () => persistence.pingDatabase();
  const redis = persistence?.redis ?? limits?.redis;
  if (redis !== undefined) probes.redis = () => redis.ping();

  // After each turn, the ledger takes the turn's entries first, then the request log and metrics; traces are told at once.
  const recording = recordEach(
    [
      ...(persistence?.ledger === undefined ? [] : [persistence.ledger]),
      ...(unusualSpend === undefined ? [] : [unusualSpend.stage]),
      ...observability.stages,
    ],
    (error) => logger.error({ error }, 'switchyard: a record stage failed'),
  );

  return {
    models: checked.models,
    modelList: checked.modelList,
    unavailableModels: new Map((options.unavailableModels ?? []).map((model) => [model.id, model.reason])),
    bodyLimit: checked.bodyLimit,
    requestPolicy: checked.requestPolicy,
    userStages: checked.userStages,
    logger,
    stages: {
      authenticate:
        persistence !== undefined && requireApiKey ? persistence.authentication(verifyKey) : createKeyCheck(verifyKey, requireApiKey),
      // Allowlist, then budget, then limits: a request refused by a limit gives its budget reservation back.
      admit:
        persistence === undefined
          ? withKeyLimits(admitEverything)
          : withModelAllowlist(withKeyBudgets(withKeyLimits(admitEverything), persistence, prices, checked.models, balances)),
      call: routing.call,
      record: recording,
    },
    diagnoseBaseUrl: options.diagnoseBaseUrl ?? true,
    adapters: [...new Set(Object.values(providers))],
    persistence,
    adminKey: options.adminKey,
    allowedOrigins: options.allowedOrigins ?? [],
    limits,
    balances,
    unusualSpend,
    routing,
    open,
    metrics: observability.metrics,
    upstream: observability.upstream,
    recording,
    closeObservability: observability.close,
    readiness: () => checkReadiness(probes),
  };
}

/** Prices a request's usage at its model's configured price; undefined when the model has none or a count is unknown. */
function priceOf(prices: ReadonlyMap<string, VersionedPrice>): PriceUsage {
  return (record, usage) => {
    const known = record.model === undefined ? undefined : prices.get(record.model);
    const nanoUsd = known === undefined ? undefined : costOf(usage, known.price);
    return known === undefined || nanoUsd === undefined ? undefined : { nanoUsd, priceVersion: known.version };
  };
}

/** Tells the metrics and traces of each upstream attempt and cooldown the router reports (nothing to tell when both are off). */
function reportRouting(routing: OpenedRouting, upstream: UpstreamObserver): void {
  if (upstream === observeNothing) return;
  routing.call.onAttempt((event) => {
    const { error } = event;
    upstream.upstreamAttempt({
      deployment: event.deployment,
      outcome: error === undefined ? 'ok' : upstreamOutcomeOf(error.status, error.code?.endsWith('TIMEOUT') ? 'timeout' : undefined),
      retry: event.attempt > 1,
      requestId: event.requestId,
      startedAt: event.startedAt,
      durationMs: event.durationMs,
      status: error?.status,
    });
  });
  routing.call.onCooldown((event) => upstream.cooldown(event.deployment, event.state === 'cooling'));
}

/** Cooldown store failures are logged at most this often. */
const COOLDOWN_ERROR_LOG_INTERVAL_MS = 10_000;

function openRoutingOf(
  options: GatewayOptions,
  checked: CheckedOptions,
  persistence: Persistence | undefined,
  logger: Logger,
): OpenedRouting {
  // Cooldowns matter only where a request has somewhere else to go: only then is Redis needed for them.
  const choices = checked.modelList.some(
    (model) => model.deployments.length > 1 || model.fallbacks.length > 0 || model.contextFallback !== undefined,
  );
  let lastLogged = 0;
  return openRouting({
    models: checked.models,
    retries: options.retries,
    cooldowns: options.cooldowns,
    redis: choices ? (persistence?.redis ?? (options.redis as OpenLimitsRedis)) : undefined,
    redisPrefix: options.redisPrefix ?? 'switchyard:',
    onStoreError: (error) => {
      const now = Date.now();
      if (now - lastLogged < COOLDOWN_ERROR_LOG_INTERVAL_MS) return;
      lastLogged = now;
      logger.error({ error }, 'switchyard: the cooldown store (Redis) cannot be reached; every deployment counts as in service');
    },
  });
}

/** Output allowance a request without a maximum is counted at against a tokens-per-minute limit. */
const DEFAULT_LIMITED_OUTPUT_TOKENS = 4_096;
/** Failed limit-store calls are logged at most this often (a Redis outage must not flood the log). */
const STORE_ERROR_LOG_INTERVAL_MS = 10_000;

function openLimitsOf(options: GatewayOptions, persistence: Persistence | undefined, logger: Logger): OpenedLimits | undefined {
  const models: Record<string, LimitSet> = {};
  for (const model of options.models ?? []) if (model.limits !== undefined) models[model.id] = model.limits;
  let lastLogged = 0;
  let unlogged = 0;
  const whenDown = options.limits?.whenStoreDown ?? 'open';
  return openLimits(admitEverything, {
    limits: options.limits,
    models,
    redis: persistence?.redis ?? (options.redis as OpenLimitsRedis),
    redisPrefix: options.redisPrefix ?? 'switchyard:',
    storedKeys: persistence !== undefined,
    // An upper bound of the input (a token per character), plus the output allowance: a request never uses more than it
    // reserved (unless it sets no maximum and writes past the default), so concurrent requests cannot slip past the limit.
    estimateTokens: ({ request }) => inputTokenBound(request) + (request.maxOutputTokens ?? DEFAULT_LIMITED_OUTPUT_TOKENS),
    onStoreError: (error) => {
      unlogged += 1;
      const now = Date.now();
      if (now - lastLogged < STORE_ERROR_LOG_INTERVAL_MS) return;
      logger.error(
        { error, failures: unlogged },
        whenDown === 'open'
          ? 'switchyard: the limits store (Redis) cannot be reached; requests are admitted without limits'
          : 'switchyard: the limits store (Redis) cannot be reached; requests are refused with 503',
      );
      lastLogged = now;
      unlogged = 0;
    },
  });
}

type OpenLimitsRedis = Parameters<typeof openLimits>[1]['redis'];

function persistenceOptionsOf(options: GatewayOptions, database: PersistenceOptions['database'], price: PriceUsage): PersistenceOptions {
  return {
    database,
    redis: options.redis,
    redisPrefix: options.redisPrefix,
    keyCacheTtlMs: options.keyCacheTtlMs,
    // The budget counters' Redis calls have the limits' deadline.
    storeTimeoutMs: options.limits?.storeTimeoutMs,
    ledger: options.ledger,
    price,
  };
}

/** Output allowance reserved for a request that sets no maximum (a budgeted key's request is then held to this much). */
const DEFAULT_RESERVED_OUTPUT_TOKENS = 32_768;

/**
 * Keys with a budget: each request reserves its largest possible cost at the model's price. Input
 * the body does not measure (a PDF, a file by id) is bounded by the largest context window the
 * request can reach; where that is unknown, there is no bound.
 */
function withKeyBudgets(
  inner: AdmissionControl,
  persistence: Persistence,
  prices: ReadonlyMap<string, VersionedPrice>,
  models: ModelTable,
  balances: OpenedBalances | undefined,
): AdmissionControl {
  const windows = new Map<string, number | undefined>();
  const windowOf = (model: string) => {
    if (!windows.has(model)) windows.set(model, largestContextWindow(models, model));
    return windows.get(model);
  };
  return withBudgets(inner, {
    store: persistence.budgets,
    maxCost: ({ model, request }) => {
      const known = prices.get(model);
      if (known === undefined) return undefined;
      const output = request.maxOutputTokens ?? DEFAULT_RESERVED_OUTPUT_TOKENS;
      const window = windowOf(model);
      const bound = inputTokenBound(request);
      if (!hasUnmeasuredInput(request))
        return { nanoUsd: maxCostOf(window === undefined ? bound : Math.min(bound, window), output, known.price), bound: 'body' };
      if (window === undefined) return { nanoUsd: maxCostOf(bound, output, known.price), bound: 'none' };
      return { nanoUsd: maxCostOf(window, output, known.price), bound: 'window' };
    },
    cost: (model, usage) => {
      const known = prices.get(model);
      return known === undefined ? undefined : costOf(usage, known.price);
    },
    spentInLedger: (keyId, since) => persistence.spentInLedger(keyId, since),
    spentByToken: (tokenId) => persistence.spentByToken(tokenId),
    ...(balances === undefined ? {} : { accountLimit: (request, at) => balances.accountLimit(request, at) }),
  });
}

/** With `balances`: accounts' balances, counted where the budgets are (Redis, else this process); credits announced on Redis. */
function openBalancesOf(options: GatewayOptions, persistence: Persistence, logger: Logger): OpenedBalances | undefined {
  if (options.balances === undefined) return undefined;
  const { redis } = persistence;
  const prefix = `${options.redisPrefix ?? 'switchyard:'}balances:`;
  return openBalances({
    options: options.balances,
    db: async () => (await persistence.database.ready()).db,
    ...(redis === undefined
      ? {}
      : { openChannel: (onCredited: (accountId: string) => void) => openRevocationChannel(redis, prefix, onCredited) }),
    onError: (error) => logger.warn({ error }, 'switchyard: account balances: a write or message failed'),
  });
}

/**
 * Keys whose spend jumps, checked off the request path: each flag is one warn line (naming the key
 * and its account, never the key itself) on the instance that flagged it; a pause reaches every
 * instance on the key revocation channel.
 */
function watchUnusualSpend(options: GatewayOptions, persistence: Persistence, logger: Logger): UnusualSpendWatch | undefined {
  if (options.unusualSpend === false || persistence.ledger === undefined) return undefined;
  const settings = options.unusualSpend ?? {};
  return new UnusualSpendWatch({
    db: () => persistence.database.current?.db,
    options: settings,
    onFlagged: (flag) =>
      logger.warn(
        {
          keyId: flag.keyId,
          keyName: flag.keyName,
          ...(flag.accountId === undefined ? {} : { accountId: flag.accountId }),
          ...(flag.accountEmail === undefined ? {} : { account: flag.accountEmail }),
          lastHourUsd: flag.lastHourNanoUsd / 1e9,
          hourlyAverageUsd: flag.hourlyAverageNanoUsd / 1e9,
          paused: flag.paused,
        },
        `switchyard: unusual spend on key ${flag.keyId}: $${(flag.lastHourNanoUsd / 1e9).toFixed(2)} in the last hour against $${(flag.hourlyAverageNanoUsd / 1e9).toFixed(2)} an hour on average${flag.paused ? '; the key is paused until an admin lifts it' : ''}`,
      ),
    onPaused: (keyId) => persistence.keys.forgetKeys([keyId]),
    onError: (error) => logger.warn({ error }, 'switchyard: the unusual-spend check failed; it runs again at the next interval'),
  });
}

/** Stored keys may name the models they can call: refused before any limit is spent. */
function withModelAllowlist(inner: AdmissionControl): AdmissionControl {
  return {
    admit(request) {
      refuseUnlistedModel(request.caller, request.model);
      return inner.admit(request);
    },
  };
}
