import { hash } from 'node:crypto';
import { z } from 'zod';
import { GatewayError } from './canonical/index.js';
import type { ApiKeyVerifier } from './access/authenticate.js';
import { parseBodyLimit } from './http/body-limit.js';
import { createProviderFromConfig, type ProviderConfig } from './providers/create-provider.js';
import { createMockProvider } from './providers/mock/index.js';
import type { Logger, ModelCapabilities, ProviderAdapter } from './providers/types.js';
import type { ModelTable, ResolvedModel } from './routing/resolve-model.js';
import { consoleLogger } from './logger.js';

/** One model callers can name. */
export interface ModelConfig {
  /** The id callers send as `model`. */
  id: string;
  /** Key of the provider in `GatewayOptions.providers` (`mock` is built in). */
  provider: string;
  /** The id sent upstream. Default: `id`. */
  upstreamModel?: string;
  /** Other ids that reach the same model. */
  aliases?: string[];
  /** Overrides what the provider reports the model can do. */
  capabilities?: Partial<ModelCapabilities>;
  /** Shown as `owned_by` in `GET /v1/models`. Default: the provider key. */
  ownedBy?: string;
  /**
   * Hosted tools the model cannot run (e.g. Responses `web_search` on an Anthropic model):
   * `refuse` answers 400 naming the tool (default); `omit` serves the request without them —
   * for clients such as Codex CLI that always send `web_search`.
   */
  hostedTools?: 'refuse' | 'omit';
}

export interface GatewayOptions {
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
  /** Largest accepted request body (bytes, or a string like `'32mb'`). Default `'32mb'`, Anthropic's own limit. */
  bodyLimit?: number | string;
  /** Whether a 404 explains a wrong base URL (`/v1/v1/…`, a missing `/v1`). Default `true`. */
  diagnoseBaseUrl?: boolean;
  /** Where warnings and errors go. Default: JSON lines on stderr, warnings and errors only. */
  logger?: Logger;
}

export interface ResolvedGatewayOptions {
  verifyKey: ApiKeyVerifier | undefined;
  requireApiKey: boolean;
  models: ModelTable;
  /** Models in configuration order, without aliases. */
  modelList: readonly ResolvedModel[];
  /** Bytes. */
  bodyLimit: number;
  diagnoseBaseUrl: boolean;
  logger: Logger;
}

const capabilitiesSchema = z
  .strictObject({
    streaming: z.boolean(),
    tools: z.boolean(),
    images: z.boolean(),
    files: z.boolean(),
    audio: z.boolean(),
    reasoning: z.boolean(),
    structuredOutput: z.boolean(),
    providerTools: z.array(z.enum(['chat', 'responses', 'messages'])),
  })
  .partial();

/** One `models[]` entry; the config file loader checks the same shape. */
export const modelConfigSchema = z.strictObject({
  id: z.string().min(1),
  provider: z.string().min(1),
  upstreamModel: z.string().min(1).optional(),
  aliases: z.array(z.string().min(1)).optional(),
  capabilities: capabilitiesSchema.optional(),
  ownedBy: z.string().optional(),
  hostedTools: z.enum(['refuse', 'omit']).optional(),
});

const optionsSchema = z.object({
  apiKeys: z.union([z.array(z.string().min(1)), z.custom<ApiKeyVerifier>((value) => typeof value === 'function')]).optional(),
  requireApiKey: z.boolean().optional(),
  providers: z
    .record(
      z.string(),
      z.custom<ProviderAdapter | ProviderConfig>((value) => typeof value === 'object' && value !== null, 'an adapter or a provider configuration'),
    )
    .optional(),
  models: z.array(modelConfigSchema).optional(),
  bodyLimit: z.union([z.number().int().positive(), z.string().regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i)]).optional(),
  diagnoseBaseUrl: z.boolean().optional(),
  logger: z.custom<Logger>((value) => typeof value === 'object' && value !== null).optional(),
});

const knownKeys = new Set(Object.keys(optionsSchema.shape));

function isAdapter(value: unknown): value is ProviderAdapter {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ProviderAdapter>;
  return typeof candidate.generate === 'function' && typeof candidate.stream === 'function';
}

function configError(code: string, message: string): GatewayError {
  return new GatewayError({ kind: 'internal', code, message });
}

const allCapabilities: ModelCapabilities = {
  streaming: true,
  tools: true,
  images: true,
  files: true,
  audio: true,
  reasoning: true,
  structuredOutput: true,
  providerTools: [],
};

/** Keys are compared as SHA-256 digests: no plain keys kept, and a Set lookup does not leak a prefix match. */
function verifierForKeys(keys: readonly string[]): ApiKeyVerifier {
  const digest = (key: string) => hash('sha256', key, 'base64');
  const digests = new Set(keys.map(digest));
  return (key) => digests.has(digest(key));
}

function resolveModels(models: readonly ModelConfig[], providers: Record<string, ProviderAdapter>) {
  const table = new Map<string, ResolvedModel>();
  const list: ResolvedModel[] = [];
  const created = Math.floor(Date.now() / 1000);
  for (const config of models) {
    const adapter = providers[config.provider];
    if (!adapter) {
      throw configError(
        'CONFIG_UNKNOWN_PROVIDER',
        `Model '${config.id}' names provider '${config.provider}', which is not configured. ` +
          `Known providers: ${Object.keys(providers).join(', ')}. Example: { id: '${config.id}', provider: 'mock' }.`,
      );
    }
    const upstreamModel = config.upstreamModel ?? config.id;
    const model: ResolvedModel = {
      id: config.id,
      upstreamModel,
      providerId: config.provider,
      adapter,
      capabilities: { ...allCapabilities, ...adapter.capabilities?.(upstreamModel), ...config.capabilities },
      created,
      ownedBy: config.ownedBy ?? config.provider,
      omitHostedTools: config.hostedTools === 'omit',
    };
    for (const id of [config.id, ...(config.aliases ?? [])]) {
      if (table.has(id)) {
        throw configError('CONFIG_MODEL_ID_DUPLICATE', `The model id or alias '${id}' is configured twice; each id must be unique.`);
      }
      table.set(id, model);
    }
    list.push(model);
  }
  return { table, list };
}

/** Validates options once and returns a new, complete object; the caller's object is never changed. */
export function resolveOptions(options: GatewayOptions = {}): ResolvedGatewayOptions {
  const logger = options.logger ?? consoleLogger;
  for (const key of Object.keys(options)) {
    if (!knownKeys.has(key)) logger.warn({ option: key }, `switchyard: unknown gateway option '${key}' is ignored`);
  }
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    throw configError('CONFIG_INVALID', `Invalid gateway option '${path}': ${issue?.message ?? 'invalid value'}.`);
  }

  const builtInMock = createMockProvider();
  const providers: Record<string, ProviderAdapter> = { mock: builtInMock };
  for (const [key, provider] of Object.entries(options.providers ?? {})) {
    providers[key] = isAdapter(provider) ? provider : createProviderFromConfig(key, provider);
  }
  const { table, list } = resolveModels(options.models ?? [{ id: 'mock', provider: 'mock' }], providers);

  const apiKeys = options.apiKeys;
  const onlyMock = list.every((model) => model.adapter === builtInMock);
  const requireApiKey = options.requireApiKey ?? (apiKeys !== undefined || !onlyMock);
  if (requireApiKey && apiKeys === undefined) {
    throw configError(
      'CONFIG_API_KEYS_MISSING',
      "No API keys are configured, and real providers are. Pass gateway({ apiKeys: ['<a long random key>'] }), or requireApiKey: false to accept anyone.",
    );
  }
  if (!requireApiKey) logger.warn({}, 'switchyard: no API keys configured; every caller is accepted');
  const verifyKey = typeof apiKeys === 'function' ? apiKeys : apiKeys === undefined ? undefined : verifierForKeys(apiKeys);

  return {
    verifyKey,
    requireApiKey,
    models: table,
    modelList: list,
    bodyLimit: parseBodyLimit(options.bodyLimit ?? '32mb'),
    diagnoseBaseUrl: options.diagnoseBaseUrl ?? true,
    logger,
  };
}
