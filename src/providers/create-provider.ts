import { z } from 'zod';
import { GatewayError } from '../canonical/index.js';
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

interface BuiltInProvider {
  /** Validates the options (everything but `type`). */
  schema: z.ZodType<Record<string, unknown>>;
  create(options: Record<string, unknown>): ProviderAdapter;
}

const mockOptionsSchema = z.strictObject({
  reply: z.string().optional(),
  chunks: z.number().int().positive().optional(),
  chunkDelayMs: z.number().int().nonnegative().optional(),
});

/** Built-in provider types. Each provider folder adds its entry here. */
const builtInProviders: Record<string, BuiltInProvider> = {
  mock: { schema: mockOptionsSchema, create: (options) => createMockProvider(options) },
  openai: {
    schema: openAIProviderOptionsSchema,
    create: (options) => createOpenAIProvider(openAIProviderOptionsSchema.parse(options)),
  },
  'openai-compatible': {
    schema: openAICompatibleProviderOptionsSchema,
    create: (options) => createOpenAICompatibleProvider(openAICompatibleProviderOptionsSchema.parse(options)),
  },
  gemini: {
    schema: geminiProviderOptionsSchema,
    create: (options) => createGeminiProvider(geminiProviderOptionsSchema.parse(options)),
  },
  'openai-responses': {
    schema: openAIResponsesProviderOptionsSchema,
    create: (options) => createOpenAIResponsesProvider(openAIResponsesProviderOptionsSchema.parse(options)),
  },
  anthropic: {
    schema: anthropicProviderOptionsSchema,
    create: (options) => createAnthropicProvider(anthropicProviderOptionsSchema.parse(options)),
  },
};

/** The names `type` may take. */
export const builtInProviderTypes = (): string[] => Object.keys(builtInProviders);

/** Creates a built-in provider from its configuration; a bad configuration throws a coded config error naming the field. */
export function createProviderFromConfig(key: string, config: ProviderConfig): ProviderAdapter {
  const { type = key, ...options } = config;
  const provider = builtInProviders[type];
  if (!provider) {
    throw new GatewayError({
      kind: 'internal',
      code: 'CONFIG_UNKNOWN_PROVIDER_TYPE',
      message: `Provider '${key}' has type '${type}', which is not built in. Built-in types: ${builtInProviderTypes().join(', ')}. Example: providers: { ${key}: { type: 'mock' } }.`,
    });
  }
  const parsed = provider.schema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = [key, ...(issue?.path ?? [])].join('.');
    throw new GatewayError({
      kind: 'internal',
      code: 'CONFIG_PROVIDER_INVALID',
      message: `Invalid provider option 'providers.${path}': ${issue?.message ?? 'invalid value'}.`,
    });
  }
  return provider.create(parsed.data);
}
