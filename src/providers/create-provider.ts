import { z } from 'zod';
import { configIssueError, GatewayError, type ConfigIssue } from '../canonical/index.js';
import { createAnthropicProvider } from './anthropic/index.js';
import { createGeminiProvider } from './gemini/index.js';
import { createMockProvider } from './mock/index.js';
import { createOpenAIProvider } from './openai/index.js';
import { createOpenAICompatibleProvider } from './openai-compatible/index.js';
import { createOpenAIResponsesProvider } from './openai-responses/index.js';
import { parseProviderOptions } from './provider-options.js';
import type { ProviderAdapter } from './types.js';

/**
 * A built-in provider described by configuration, e.g. `{ type: 'openai', apiKey }`. `type`
 * defaults to the provider's key in `GatewayOptions.providers`, so `providers: { openai: { apiKey } }` works.
 */
export interface BuiltInProviderOptions {
  type?: string;
  [option: string]: unknown;
}

/** @deprecated Use `BuiltInProviderOptions`: the same type, renamed by the naming rule (docs/architecture.md#names-of-parameter-objects). */
export type ProviderConfig = BuiltInProviderOptions;

/** A built-in provider type: creates the adapter from its options, which its factory validates once. */
type BuiltInProvider = (key: string, options: Record<string, unknown>) => ProviderAdapter;

/** The issue a factory's `CONFIG_PROVIDER_INVALID` carries (its cause), when it carries one. */
function issueOf(error: GatewayError): ConfigIssue | undefined {
  const cause = error.cause as Partial<ConfigIssue> | undefined;
  return Array.isArray(cause?.path) && typeof cause.message === 'string' ? { path: cause.path, message: cause.message } : undefined;
}

/** `create` with a bad option named by its place in the configuration: `providers.<key>.<field>`. */
function builtIn<T>(create: (options: T) => ProviderAdapter): BuiltInProvider {
  return (key, options) => {
    try {
      return create(options as T);
    } catch (error) {
      const issue = GatewayError.isInstance(error) && error.code === 'CONFIG_PROVIDER_INVALID' ? issueOf(error) : undefined;
      if (issue === undefined) throw error;
      throw configIssueError('CONFIG_PROVIDER_INVALID', 'provider option', {
        path: ['providers', key, ...issue.path],
        message: issue.message,
      });
    }
  };
}

/** The mock's few options are checked here: its factory takes them unchecked. */
const checkedMock = (options: unknown) =>
  createMockProvider(parseProviderOptions(mockOptionsSchema, options, 'mock provider option', "{ type: 'mock', reply: 'Hello' }"));

const mockOptionsSchema = z.strictObject({
  reply: z.string().optional(),
  chunks: z.number().int().positive().optional(),
  chunkDelayMs: z.number().int().nonnegative().optional(),
});

/** Built-in provider types. Each provider folder adds its entry here. */
const builtInProviders: Record<string, BuiltInProvider> = {
  mock: builtIn(checkedMock),
  openai: builtIn(createOpenAIProvider),
  'openai-compatible': builtIn(createOpenAICompatibleProvider),
  'openai-responses': builtIn(createOpenAIResponsesProvider),
  anthropic: builtIn(createAnthropicProvider),
  gemini: builtIn(createGeminiProvider),
};

/** The names `type` may take. */
export const builtInProviderTypes = (): string[] => Object.keys(builtInProviders);

/** Creates a built-in provider from its configuration; a bad configuration throws a coded config error naming the field. */
export function createProviderFromConfig(key: string, config: BuiltInProviderOptions): ProviderAdapter {
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
