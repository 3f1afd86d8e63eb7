// The gateway's options: their types, and checking them (schema, providers, models, keys) into
// what the stages are built from. Opening and wiring the stages is resolve-options.ts's job.
import type { z } from 'zod';
import { configError, configIssueError, configIssueMessage } from '../canonical/index.js';
import type { ApiKeyVerifier } from '../access/authenticate.js';
import { verifyConfiguredKeys } from '../access/configured-keys.js';
import { parseBodyLimit } from '../http/body-limit.js';
import { createProviderFromConfig, type BuiltInProviderOptions } from '../providers/create-provider.js';
import { checkSpecificationVersion } from '../providers/specification-version.js';
import { createMockProvider } from '../providers/mock/index.js';
import type { Logger, ProviderAdapter } from '../providers/types.js';
import type { CooldownOptions } from '../routing/cooldown.js';
import type { RetryOptions } from '../routing/retry-policy.js';
import { createModelTable } from '../routing/create-model-table.js';
import type { RoutedModelOptions } from '../routing/routed-model-options.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts, type TimeoutOptions } from '../routing/timeouts.js';
import type { ModelTable, ResolvedModel } from '../routing/resolve-model.js';
import type { ObservabilityOptions } from '../observability/resolve-observability.js';
import { consoleLogger } from '../logger.js';
import type { LedgerOptions, PersistenceOptions } from './persistence.js';
import type { LimitsOptions } from '../limits/open-limits.js';
import type { BalancesOptions } from '../limits/open-balances.js';
import type { UnusualSpendOptions } from '../usage/unusual-spend-watch.js';
import type { RequestPolicy, RequestPolicyOptions } from '../policy/request-policy.js';
import { resolveRequestPolicyTable, type RequestPolicyTable } from '../policy/request-policy-table.js';
import { knownKeys, optionsSchema } from './options-schema.js';
import type { Stage } from '../pipeline/stage.js';

export type { PolicyAction, RequestPolicy, RequestPolicyOptions } from '../policy/request-policy.js';
export type { TimeoutOptions } from '../routing/timeouts.js';

/** A model id the gateway knows but does not serve, and why (`GatewayOptions.unavailableModels`). */
export interface UnavailableModel {
  id: string;
  /** A sentence the 404 gives instead of "does not exist", e.g. what would make the model available. */
  reason: string;
}

/** One model callers can name. */
export interface ModelOptions extends RoutedModelOptions {
  /**
   * This model's request policy, over the gateway's `requestPolicy` (a key's override wins over
   * both), field by field. See docs/security.md, "Request policy".
   * @example requestPolicy: { maxOutputTokens: 8192, fields: { service_tier: 'allow' } }
   */
  requestPolicy?: RequestPolicy;
}

/** @deprecated Use `ModelOptions`: the same type, renamed by the naming rule (docs/architecture.md#names-of-parameter-objects). */
export type ModelConfig = ModelOptions;

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
  providers?: Record<string, ProviderAdapter | BuiltInProviderOptions>;
  /** The models served. Default: one model, `mock`, on the mock provider. */
  models?: readonly ModelOptions[];
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
   * shares them), else in this process. See docs/limits.md.
   */
  limits?: LimitsOptions;
  /**
   * Console accounts hold a prepaid balance (nano-USD, topped up by an admin or a redemption code):
   * a request on a key a console user owns is charged to it and refused once it could cost more
   * than is left. Keys from the options, keys without an owner and (unless `admins`) admins' keys
   * have none. Needs a `database`. See the README's "Accounts and balances".
   */
  balances?: BalancesOptions;
  /**
   * Unusual spend: a stored key whose spend in the last hour is 5× its trailing day's hourly average
   * and over $1 is flagged — a warn log line and a metric, once per jump — and with `pause: true`
   * paused (refused with 403 `KEY_PAUSED` on every instance) until an admin lifts it. On by default
   * (without pausing) with a `database` and the ledger; `false` turns it off. See docs/accounts.md.
   * @example unusualSpend: { pause: true }
   */
  unusualSpend?: UnusualSpendOptions | false;
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
   * sits between them. Default: the built-in safe policy (see docs/security.md, "Request policy").
   * @example requestPolicy: { tools: { web_search: 'allow' }, keys: { 'ci-bot': { maxOutputTokens: 4096 } } }
   */
  requestPolicy?: RequestPolicyOptions;
  /**
   * Stages of your own (a cache, a guardrail, your own checks), run on every generation request
   * with the built-in ones: each placed by its `position` (default: just before the provider call),
   * in the order given. See the guide's "Writing a stage".
   * @example stages: [{ name: 'no-card-numbers', position: { before: 'admit' }, before(context) { … } }]
   */
  stages?: readonly Stage[];
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
   * a waiting stream gets a keep-alive. `models[].timeouts` overrides per model. See docs/routing.md, "Timeouts".
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
   * Shared through `redis` when it is set. Default `{ failures: 3, windowMs: 30000, cooldownMs: 30000, maxCooldownMs: 300000, refreshMs: 1000 }`; `false` turns cooldowns off.
   */
  cooldowns?: CooldownOptions | false;
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
  /** The users' own stages, in the order given. */
  userStages: readonly Stage[];
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
    checkSpecificationVersion(key, providers[key]);
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
  if (options.balances !== undefined && options.database === undefined) {
    throw configError('CONFIG_BALANCES_NEED_DATABASE', 'balances keep a ledger per account in the database: give a database too.');
  }
  if (
    options.unusualSpend !== undefined &&
    options.unusualSpend !== false &&
    (options.database === undefined || options.ledger === false)
  ) {
    throw configError(
      'CONFIG_UNUSUAL_SPEND_NEEDS_LEDGER',
      'unusualSpend reads each key’s spend from the usage ledger: give a database too, and keep the ledger on (or drop unusualSpend).',
    );
  }
  if (options.adminKey !== undefined && options.database === undefined) {
    throw configError('CONFIG_ADMIN_NEEDS_DATABASE', 'adminKey turns on the admin API, which manages stored keys: give a database too.');
  }
  if (options.adminKey !== undefined && options.adminKey.length < 16) {
    throw configError(
      'CONFIG_ADMIN_KEY_WEAK',
      'adminKey must be at least 16 characters: it can create keys. Generate one with: openssl rand -hex 24',
    );
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
    userStages: options.stages ?? [],
  };
}
