import { z } from 'zod';
import { configError, configIssueError, configIssueMessage } from './canonical/index.js';
import type { ApiKeyVerifier } from './access/authenticate.js';
import { createKeyCheck } from './access/authenticate-stage.js';
import { refuseUnlistedModel } from './access/model-allowlist.js';
import { verifyConfiguredKeys } from './access/configured-keys.js';
import type { EndpointSetup } from './endpoints/stages.js';
import { parseBodyLimit } from './http/body-limit.js';
import { admitEverything, type AdmitStage } from './limits/admit-stage.js';
import { createProviderFromConfig, type ProviderConfig } from './providers/create-provider.js';
import { createMockProvider } from './providers/mock/index.js';
import type { Logger, ProviderAdapter } from './providers/types.js';
import type { CooldownOptions } from './routing/cooldown.js';
import { openRouting, type OpenedRouting } from './routing/open-routing.js';
import type { RetryOptions } from './routing/retry-policy.js';
import { createModelTable } from './routing/create-model-table.js';
import type { ModelConfig as RoutedModelConfig } from './routing/model-config.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts, type TimeoutOptions } from './routing/timeouts.js';
import type { ModelTable, ResolvedModel } from './routing/resolve-model.js';
import type { Database } from './storage/open-database.js';
import { recordEach } from './usage/record-stage.js';
import { OpenRequests } from './endpoints/open-requests.js';
import { resolveObservability, type ObservabilityOptions } from './observability/resolve-observability.js';
import type { GatewayMetrics } from './observability/gateway-metrics.js';
import { observeNothing, upstreamOutcomeOf, type UpstreamObserver } from './observability/upstream-observer.js';
import { checkReadiness, type Probe, type Readiness } from './observability/readiness.js';
import { consoleLogger } from './logger.js';
import { openPersistence, type LedgerOptions, type Persistence, type PersistenceOptions } from './persistence.js';
import { costOf, maxCostOf, type VersionedPrice } from './catalog/cost.js';
import { withBudgets } from './limits/budget-stage.js';
import { openLimits, type LimitsOptions, type OpenedLimits } from './limits/open-limits.js';
import type { LimitSet } from './limits/limit-rules.js';
import type { PriceUsage } from './usage/ledger-stage.js';
import { inputTokenBound } from './usage/input-token-bound.js';
import type { RequestPolicy, RequestPolicyOptions } from './policy/request-policy.js';
import { resolveRequestPolicyTable, type RequestPolicyTable } from './policy/request-policy-table.js';
import { knownKeys, optionsSchema } from './options-schema.js';

export type { PolicyAction, RequestPolicy, RequestPolicyOptions } from './policy/request-policy.js';
export type { TimeoutOptions } from './routing/timeouts.js';

/** A model id the gateway knows but does not serve, and why (`GatewayOptions.unavailableModels`). */
export interface UnavailableModel {
  id: string;
  /** A sentence the 404 gives instead of "does not exist", e.g. what would make the model available. */
  reason: string;
}

/** One model callers can name. */
export interface ModelConfig extends RoutedModelConfig {
  /**
   * This model's request policy, over the gateway's `requestPolicy` (a key's override wins over
   * both), field by field. See the README's "Request policy".
   * @example requestPolicy: { maxOutputTokens: 8192, fields: { service_tier: 'allow' } }
   */
  requestPolicy?: RequestPolicy;
}

export interface GatewayOptions extends ObservabilityOptions {
  /**
   * Keys callers may use, or a function that checks one. Without keys the gateway accepts any
   * caller, which is allowed only while every model is on the built-in mock provider (or when
   * `requireApiKey: false` says so explicitly).
   * @example apiKeys: [process.env.SWITCHYARD_API_KEY!]
   */
  apiKeys?: readonly string[] | ApiKeyVerifier;
  /** Whether callers must present a key. Default: `true` once `apiKeys` are given or a non-mock model is configured. */
  requireApiKey?: boolean;
  /**
   * Providers by key: adapter objects, or configurations of built-in providers
   * (`{ type: 'openai', apiKey }`; `type` defaults to the key). A deterministic `mock` provider is always available.
   */
  providers?: Record<string, ProviderAdapter | ProviderConfig>;
  /** The models served. Default: one model, `mock`, on the mock provider. */
  models?: readonly ModelConfig[];
  /**
   * Model ids callers may ask for that this gateway knows but does not serve, each with the reason
   * its 404 gives instead of "does not exist". The standalone server lists here the default models
   * of each provider whose key is not set. A served model of the same id wins.
   * @example unavailableModels: [{ id: 'gpt-5.4-mini', reason: 'It is served when OPENAI_API_KEY is set; this server started without it.' }]
   */
  unavailableModels?: readonly UnavailableModel[];
  /** Largest accepted request body (bytes, or a string like `'32mb'`). Default `'32mb'`, Anthropic's own limit. */
  bodyLimit?: number | string;
  /** Whether a 404 explains a wrong base URL (`/v1/v1/…`, a missing `/v1`). Default `true`. */
  diagnoseBaseUrl?: boolean;
  /** Where warnings and errors go. Default: JSON lines on stderr, warnings and errors only. */
  logger?: Logger;
  /**
   * Where stored keys and the usage ledger live: a SQLite file path (`'switchyard.db'`), a
   * `postgres://` URL (several instances share it; `{ url, schema }` picks a schema), or a
   * database opened with `openDatabase`. Without it there are no stored keys and no ledger.
   */
  database?: PersistenceOptions['database'];
  /** A `redis://` URL or an ioredis client shared by every instance: key revocations reach them all at once. */
  redis?: PersistenceOptions['redis'];
  /** Prefix of the gateway's Redis keys and channels. Default `'switchyard:'`. */
  redisPrefix?: string;
  /** How long a stored key's lookup is trusted, in ms: a revoked key is refused at most this late without Redis. Default 5000. */
  keyCacheTtlMs?: number;
  /** The usage ledger's settings; `false` turns it off. On by default with a `database`. */
  ledger?: LedgerOptions | false;
  /**
   * Requests and tokens per minute and concurrent requests, per key (and per key and model);
   * per-model limits go on `models[].limits`. Counted in Redis when `redis` is set (every instance
   * shares them), else in this process. See the README's "Limits".
   */
  limits?: LimitsOptions;
  /**
   * Turns on the admin API (`/admin/keys`, `/admin/usage`, `/admin/ledger`) guarded by this key,
   * which is not a gateway key. Needs a `database`; at least 16 characters.
   */
  adminKey?: string;
  /**
   * Origins whose browser pages may call the gateway (with a browser token from `POST /v1/tokens`),
   * e.g. `['https://app.example.com']`; `['*']` allows any. Default: none (no CORS headers).
   */
  allowedOrigins?: readonly string[];
  /**
   * Which pass-through fields, hosted tools and `anthropic-beta` values callers may use, and the
   * largest `n` and output: its default for every model and key, plus `keys` overrides (by a stored
   * key's public id or name; `options` for the keys from `apiKeys`); `models[].requestPolicy`
   * sits between them. Default: the built-in safe policy (see the README's "Request policy").
   * @example requestPolicy: { tools: { web_search: 'allow' }, keys: { 'ci-bot': { maxOutputTokens: 4096 } } }
   */
  requestPolicy?: RequestPolicyOptions;
  /**
   * The "adapt" policy: what a request only hints at but its model cannot do (reasoning or thinking,
   * hosted tools such as Codex's `web_search`) is left out and named in the `x-switchyard-adapted`
   * header, instead of refused with a 400. `false` refuses it, as strictly as a model's
   * `adapt: false`. What would change the answer (images, tools, structured output the model
   * lacks) is refused either way. Default `true`.
   */
  adapt?: boolean;
  /**
   * How long every model's upstream may take — to connect, to its first output, between two reads
   * once output began, in total — how long a stream's headers are held for failover, and how often
   * a waiting stream gets a keep-alive. `models[].timeouts` overrides per model. See the README's "Timeouts".
   * @example timeouts: { firstTokenMs: 120000, idleMs: 60000 }
   */
  timeouts?: TimeoutOptions;
  /**
   * How failed upstream calls are retried before any output reached the client (on the model's other
   * deployments first, then the same one after a backoff); `models[].retries` overrides it per model.
   * Default `{ attempts: 2, baseDelayMs: 200, maxDelayMs: 2000, maxRetryAfterMs: 5000 }`; `attempts: 0` turns retries off.
   * @example retries: { attempts: 3, maxRetryAfterMs: 10000 }
   */
  retries?: RetryOptions;
  /**
   * When a failing deployment is taken out, and for how long, before one trial request probes it.
   * Shared through `redis` when it is set. Default `{ failures: 3, windowMs: 30000, cooldownMs: 30000, maxCooldownMs: 300000 }`; `false` turns cooldowns off.
   */
  cooldowns?: CooldownOptions | false;
}

/** Options after `resolveOptions`: what the endpoints are built from, plus what the gateway itself reads. */
export interface ResolvedGatewayOptions extends EndpointSetup {
  diagnoseBaseUrl: boolean;
  /** Every distinct adapter the models use, to close on shutdown. */
  adapters: readonly ProviderAdapter[];
  /** Stored keys and the ledger, with a `database`. */
  persistence: Persistence | undefined;
  adminKey: string | undefined;
  allowedOrigins: readonly string[];
  /** The limits stage and what it opened, when any limit is configured. */
  limits: OpenedLimits | undefined;
  /** The generation requests being answered (a shutdown interrupts them; metrics count them). */
  open: OpenRequests;
  /** The gateway's Prometheus metrics, with `metrics` on. */
  metrics: GatewayMetrics | undefined;
  /** Where the "call" stage reports each upstream attempt and cooldown (metrics; nothing by default). */
  upstream: UpstreamObserver;
  /** Ends what the operator's view opened (the default request log's stdout lines). */
  closeObservability(): void;
  /** Probes the database and Redis the gateway uses (`/ready`). */
  readiness(): Promise<Readiness>;
  /** The "call" stage (deployments, retries, fallbacks, cooldowns), its counters and hooks, and what it opened. */
  routing: OpenedRouting;
}

function isAdapter(value: unknown): value is ProviderAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ProviderAdapter>;
  return typeof candidate.generate === 'function' && typeof candidate.stream === 'function';
}

/**
 * The first issue worth reading: for a union that failed (a key list or a function), the issue of
 * the branch that got furthest into the value, so `apiKeys[0]` is named rather than `apiKeys`.
 */
function deepestIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first !== undefined && first.path.length > 0 && (best === undefined || first.path.length > best.path.length)) best = first;
  }
  return best === undefined ? issue : { ...deepestIssue(best), path: [...issue.path, ...best.path] };
}

/** The options validated and bound to their providers and models, with nothing opened yet (`checkOptions`). */
export interface CheckedOptions {
  logger: Logger;
  /** Every provider by key, the built-in mock included. */
  providers: Readonly<Record<string, ProviderAdapter>>;
  models: ModelTable;
  modelList: readonly ResolvedModel[];
  requireApiKey: boolean;
  verifyKey: ApiKeyVerifier | undefined;
  bodyLimit: number;
  requestPolicy: RequestPolicyTable;
}

/**
 * Every check `resolveOptions` makes, without opening anything (no database, Redis or limits
 * store) — what `switchyard config check` runs. Throws the same `CONFIG_*` GatewayErrors. Built-in
 * providers are created (no connection is made until a request); close them when done.
 */
export function checkOptions(options: GatewayOptions = {}): CheckedOptions {
  const logger = options.logger ?? consoleLogger;
  for (const key of Object.keys(options)) {
    if (!knownKeys.has(key)) logger.warn({ option: key }, `switchyard: unknown gateway option '${key}' is ignored`);
  }
  const parsed = optionsSchema.safeParse(options, { error: configIssueMessage });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw configIssueError('CONFIG_INVALID', 'gateway option', first === undefined ? undefined : deepestIssue(first));
  }

  const builtInMock = createMockProvider();
  const providers: Record<string, ProviderAdapter> = { mock: builtInMock };
  for (const [key, provider] of Object.entries(options.providers ?? {})) {
    providers[key] = isAdapter(provider) ? provider : createProviderFromConfig(key, provider);
  }
  const { table, list } = createModelTable(options.models ?? [{ id: 'mock', provider: 'mock' }], providers, {
    adapt: options.adapt,
    timeouts: resolveTimeouts(DEFAULT_TIMEOUTS, options.timeouts),
  });

  const apiKeys = options.apiKeys;
  const hasDatabase = options.database !== undefined;
  const onlyMock = list.every((model) => model.adapter === builtInMock);
  const requireApiKey = options.requireApiKey ?? (apiKeys !== undefined || hasDatabase || !onlyMock);
  if (requireApiKey && apiKeys === undefined && !hasDatabase) {
    throw configError(
      'CONFIG_API_KEYS_MISSING',
      "No API keys are configured, and real providers are. Pass gateway({ apiKeys: ['<a long random key>'] }) or a database for stored keys, or requireApiKey: false to accept anyone.",
    );
  }
  const verifyKey = typeof apiKeys === 'function' ? apiKeys : apiKeys === undefined ? undefined : verifyConfiguredKeys(apiKeys);
  if (options.adminKey !== undefined && options.database === undefined) {
    throw configError('CONFIG_ADMIN_NEEDS_DATABASE', 'adminKey turns on the admin API, which manages stored keys: give a database too.');
  }
  if (options.adminKey !== undefined && options.adminKey.length < 16) {
    throw configError('CONFIG_ADMIN_KEY_WEAK', 'adminKey must be at least 16 characters: it can create keys. Generate one with: openssl rand -hex 24');
  }
  return {
    logger,
    providers,
    models: table,
    modelList: list,
    requireApiKey,
    verifyKey,
    bodyLimit: parseBodyLimit(options.bodyLimit ?? '32mb'),
    requestPolicy: resolveRequestPolicyTable(options.requestPolicy, options.models ?? []),
  };
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
  const persistence = options.database === undefined ? undefined : openPersistence(persistenceOptionsOf(options, options.database, price), logger);
  const limits = openLimitsOf(options, persistence, logger);
  const withKeyLimits = (inner: AdmitStage) => (limits === undefined ? inner : limits.stage);
  const routing = openRoutingOf(options, checked, persistence, logger);
  const open = new OpenRequests();
  const observability = resolveObservability(options, {
    open: () => open.counts(),
    limits: limits === undefined ? undefined : () => limits.stage.counters(),
    ledger: persistence?.ledger === undefined ? undefined : () => persistence.ledgerCounters(),
    price,
  });
  reportRouting(routing, observability.upstream);
  const probes: Record<string, Probe> = {};
  if (persistence !== undefined) probes.database = () => persistence.pingDatabase();
  const redis = persistence?.redis ?? limits?.redis;
  if (redis !== undefined) probes.redis = () => redis.ping();

  return {
    models: checked.models,
    modelList: checked.modelList,
    unavailableModels: new Map((options.unavailableModels ?? []).map((model) => [model.id, model.reason])),
    bodyLimit: checked.bodyLimit,
    requestPolicy: checked.requestPolicy,
    logger,
    stages: {
      authenticate: persistence !== undefined && requireApiKey ? persistence.authentication(verifyKey) : createKeyCheck(verifyKey, requireApiKey),
      // Allowlist, then budget, then limits: a request refused by a limit gives its budget reservation back.
      admit: persistence === undefined ? withKeyLimits(admitEverything) : withModelAllowlist(withKeyBudgets(withKeyLimits(admitEverything), persistence, prices)),
      call: routing.call,
      // The ledger first: the request log, metrics and traces read the same entry after it.
      record: recordEach([...(persistence?.ledger === undefined ? [] : [persistence.ledger]), ...observability.stages], (error) =>
        logger.error({ error }, 'switchyard: a record stage failed'),
      ),
    },
    diagnoseBaseUrl: options.diagnoseBaseUrl ?? true,
    adapters: [...new Set(Object.values(providers))],
    persistence,
    adminKey: options.adminKey,
    allowedOrigins: options.allowedOrigins ?? [],
    limits,
    routing,
    open,
    metrics: observability.metrics,
    upstream: observability.upstream,
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

function openRoutingOf(options: GatewayOptions, checked: CheckedOptions, persistence: Persistence | undefined, logger: Logger): OpenedRouting {
  // Cooldowns matter only where a request has somewhere else to go: only then is Redis needed for them.
  const choices = checked.modelList.some((model) => model.deployments.length > 1 || model.fallbacks.length > 0 || model.contextFallback !== undefined);
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
        whenDown === 'open' ? 'switchyard: the limits store (Redis) cannot be reached; requests are admitted without limits' : 'switchyard: the limits store (Redis) cannot be reached; requests are refused with 503',
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
    ledger: options.ledger,
    price,
  };
}

/** Output allowance reserved for a request that sets no maximum (a budgeted key's request is then held to this much). */
const DEFAULT_RESERVED_OUTPUT_TOKENS = 32_768;

/** Keys with a budget: each request reserves its largest possible cost at the model's price. */
function withKeyBudgets(inner: AdmitStage, persistence: Persistence, prices: ReadonlyMap<string, VersionedPrice>): AdmitStage {
  return withBudgets(inner, {
    store: persistence.budgets,
    maxCost: ({ model, request }) => {
      const known = prices.get(model);
      return known === undefined ? undefined : maxCostOf(inputTokenBound(request), request.maxOutputTokens ?? DEFAULT_RESERVED_OUTPUT_TOKENS, known.price);
    },
    cost: (model, usage) => {
      const known = prices.get(model);
      return known === undefined ? undefined : costOf(usage, known.price);
    },
    spentInLedger: (keyId, since) => persistence.spentInLedger(keyId, since),
    spentByToken: (tokenId) => persistence.spentByToken(tokenId),
  });
}

/** Stored keys may name the models they can call: refused before any limit is spent. */
function withModelAllowlist(inner: AdmitStage): AdmitStage {
  return {
    admit(request) {
      refuseUnlistedModel(request.caller, request.model);
      return inner.admit(request);
    },
  };
}
