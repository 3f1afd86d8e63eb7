import { z } from 'zod';
import { configIssueError, GatewayError } from '../canonical/index.js';
import { anthropicProviderOptionsSchema, createAnthropicProvider } from './anthropic/index.js';
import { createGeminiProvider, geminiProviderOptionsSchema } from './gemini/index.js';
import { createMockProvider } from './mock/index.js';
import { createOpenAIProvider, openAIProviderOptionsSchema } from './openai/index.js';
import { createOpenAICompatibleProvider, openAICompatibleProviderOptionsSchema } from './openai-compatible/index.js';
import { createOpenAIResponsesProvider, openAIResponsesProviderOptionsSchema } from './openai-responses/index.js';
import type { ProviderAdapter } from './types.js';

/**
 * A built-in provider described by configuration, e.g. `{ type: 'openai', apiKey }`. `type`
 * defaults to the provider's key in `GatewayOptions.providers`, so `providers: { openai: { apiKey } }` works.
 */
export interface ProviderConfig {
  type?: string;
  [option: string]: unknown;
}

/** A built-in provider type: validates its options once, then creates the adapter. */
type BuiltInProvider = (key: string, options: Record<string, unknown>) => ProviderAdapter;

function builtIn<T>(schema: z.ZodType<T>, create: (options: T) => ProviderAdapter): BuiltInProvider {
  return (key, options) => {
    const parsed = schema.safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const located = { path: ['providers', key, ...(issue?.path ?? [])], message: issue?.message ?? 'invalid value' };
      throw configIssueError('CONFIG_PROVIDER_INVALID', 'provider option', located);
    }
    return create(parsed.data);
  };
}

const mockOptionsSchema = z.strictObject({
  reply: z.string().optional(),
  chunks: z.number().int().positive().optional(),
  chunkDelayMs: z.number().int().nonnegative().optional(),
});

/** Built-in provider types. Each provider folder adds its entry here. */
const builtInProviders: Record<string, BuiltInProvider> = {
  mock: builtIn(mockOptionsSchema, createMockProvider),
  openai: builtIn(openAIProviderOptionsSchema, createOpenAIProvider),
  'openai-compatible': builtIn(openAICompatibleProviderOptionsSchema, createOpenAICompatibleProvider),
  'openai-responses': builtIn(openAIResponsesProviderOptionsSchema, createOpenAIResponsesProvider),
  anthropic: builtIn(anthropicProviderOptionsSchema, createAnthropicProvider),
  gemini: builtIn(geminiProviderOptionsSchema, createGeminiProvider),
};

/** The names `type` may take. */
export const builtInProviderTypes = (): string[] => Object.keys(builtInProviders);

/** Creates a built-in provider from its configuration; a bad configuration throws a coded config error naming the field. */
export function createProviderFromConfig(key: string, config: ProviderConfig): ProviderAdapter {
  const { type = key, ...options } = config;
  const provider = builtInProviders[type];
  if (!provider) {
    throw new GatewayError({
      code: 'CONFIG_UNKNOWN_PROVIDER_TYPE',
      message: `Provider '${key}' has type '${type}', which is not built in. Built-in types: ${builtInProviderTypes().join(', ')}. Example: providers: { ${key}: { type: 'mock' } }.`,
    });
  }
  return provider(key, options);
}
