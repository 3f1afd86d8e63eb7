import { z } from 'zod';
import { configError } from '../../canonical/index.js';
import { hasHeader, parseProviderOptions, providerOptionsShape, transportOptionsOf, type ProviderOptions } from '../provider-options.js';

/** Options of the Anthropic provider (`type: 'anthropic'`). */
export interface AnthropicProviderOptions extends ProviderOptions {
  /** Anthropic API key, sent as `x-api-key`. Default: `process.env.ANTHROPIC_API_KEY`. */
  apiKey?: string;
  /** API origin, without `/v1` (as the Anthropic SDK takes it). Default `https://api.anthropic.com`; a trailing `/v1` is removed. */
  baseURL?: string;
  /** `anthropic-version` header. Default `2023-06-01`. */
  anthropicVersion?: string;
  /** Beta features, sent as `anthropic-beta` (comma-joined) on every call. */
  betas?: string[];
  /**
   * `max_tokens` for requests that set no output limit. Default: the model's largest output capped
   * by what remains of its context window, when the gateway knows them (`models[].maxOutputTokens`,
   * `contextWindow`, or the catalog's); else 4096.
   */
  defaultMaxTokens?: number;
  /** Per-model `max_tokens` defaults, by exact model id or id prefix (the longest prefix wins), e.g. `{ 'claude-sonnet-4': 16000 }`. */
  maxTokensByModel?: Record<string, number>;
  /** Provider id in logs. Default `anthropic`. */
  id?: string;
}

export const anthropicProviderOptionsSchema = z.strictObject({
  ...providerOptionsShape,
  anthropicVersion: z.string().min(1).optional(),
  betas: z.array(z.string().min(1)).optional(),
  defaultMaxTokens: z.number().int().positive().optional(),
  maxTokensByModel: z.record(z.string(), z.number().int().positive()).optional(),
});

export interface ResolvedAnthropicOptions {
  id: string;
  baseURL: string;
  headers: Record<string, string>;
  /** What the transport takes: timeouts, connections, answer size. */
  transport: ReturnType<typeof transportOptionsOf>;
  /** Undefined when not configured: the model's limits decide, else FALLBACK_MAX_TOKENS. */
  defaultMaxTokens: number | undefined;
  maxTokensByModel: ReadonlyArray<readonly [string, number]>;
}

/** Validates the options once into a new object (the caller's is never changed). Throws a coded config error. */
export function resolveAnthropicOptions(options: AnthropicProviderOptions, env: NodeJS.ProcessEnv = process.env): ResolvedAnthropicOptions {
  const example = 'createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY })';
  const valid = parseProviderOptions(anthropicProviderOptionsSchema, options, 'Anthropic provider option', example);
  const extra = valid.headers ?? {};
  const apiKey = valid.apiKey ?? env.ANTHROPIC_API_KEY;
  if ((apiKey === undefined || apiKey === '') && !hasHeader(extra, 'x-api-key') && !hasHeader(extra, 'authorization')) {
    throw configError(
      'CONFIG_PROVIDER_API_KEY_MISSING',
      "The Anthropic provider has no API key. Set ANTHROPIC_API_KEY or pass one: providers: { anthropic: { type: 'anthropic', apiKey: 'sk-ant-…' } }.",
    );
  }
  const headers: Record<string, string> = { 'anthropic-version': valid.anthropicVersion ?? '2023-06-01' };
  if (apiKey !== undefined && apiKey !== '') headers['x-api-key'] = apiKey;
  if (valid.betas !== undefined && valid.betas.length > 0) headers['anthropic-beta'] = valid.betas.join(',');
  return {
    id: valid.id ?? 'anthropic',
    baseURL: (valid.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '').replace(/\/v1$/, ''),
    headers: { ...headers, ...extra },
    transport: transportOptionsOf(valid),
    defaultMaxTokens: valid.defaultMaxTokens,
    maxTokensByModel: Object.entries(valid.maxTokensByModel ?? {}).sort(([a], [b]) => b.length - a.length),
  };
}

/** `max_tokens` when neither the options nor the model's limits give one. */
export const FALLBACK_MAX_TOKENS = 4096;

/**
 * The default `max_tokens` for `model`: the configured one (exact id or longest matching prefix of
 * `maxTokensByModel`, else `defaultMaxTokens`), else `outputTokenLimit` (the model's largest output
 * within what remains of its window), else FALLBACK_MAX_TOKENS.
 */
export function resolveDefaultMaxTokens(options: ResolvedAnthropicOptions, model: string, outputTokenLimit?: number): number {
  const configured = options.maxTokensByModel.find(([prefix]) => model.startsWith(prefix))?.[1] ?? options.defaultMaxTokens;
  return configured ?? outputTokenLimit ?? FALLBACK_MAX_TOKENS;
}
