import type { ModelOptions, UnavailableModel } from '../gateway/options.js';
import type { BuiltInProviderOptions } from '../providers/create-provider.js';
import type { LoadedConfig } from './config-schema.js';

/** A provider `npx switchyard` adds when its key is in the environment, and the models it then serves. */
export interface DetectedProvider {
  /** Provider key and built-in type. */
  provider: 'openai' | 'anthropic' | 'gemini';
  envVar: 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GEMINI_API_KEY';
  models: readonly string[];
}

/** The zero-config model lists (README "Start", docs/install.md). The first model of each is its default. */
export const detectableProviders: readonly DetectedProvider[] = [
  { provider: 'openai', envVar: 'OPENAI_API_KEY', models: ['gpt-5.4', 'gpt-5.4-mini', 'gpt-4.1-mini'] },
  { provider: 'anthropic', envVar: 'ANTHROPIC_API_KEY', models: ['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5'] },
  { provider: 'gemini', envVar: 'GEMINI_API_KEY', models: ['gemini-2.5-flash', 'gemini-2.5-pro'] },
];

/** Why a detectable provider's model is not served: the variable that would add it. */
export function unsetKeyReason(envVar: DetectedProvider['envVar']): string {
  return `It is served when ${envVar} is set; this server started without it.`;
}

/**
 * The configuration `npx switchyard` uses without a config file: the built-in `mock` model,
 * plus each provider whose API key is set in `env`, added as a built-in provider config
 * (`{ apiKey }`, type = the key) with its documented model list. The models of the providers
 * whose key is not set are `unavailableModels`, so asking for one says which variable to set.
 */
export function createZeroConfig(env: NodeJS.ProcessEnv): LoadedConfig {
  const providers: Record<string, BuiltInProviderOptions> = {};
  const models: ModelOptions[] = [{ id: 'mock', provider: 'mock' }];
  const unavailableModels: UnavailableModel[] = [];
  for (const detectable of detectableProviders) {
    const apiKey = env[detectable.envVar];
    if (apiKey === undefined || apiKey.trim() === '') {
      for (const id of detectable.models) unavailableModels.push({ id, reason: unsetKeyReason(detectable.envVar) });
      continue;
    }
    providers[detectable.provider] = { apiKey: apiKey.trim() };
    for (const id of detectable.models) models.push({ id, provider: detectable.provider });
  }
  return { server: {}, gateway: { providers, models, ...(unavailableModels.length === 0 ? {} : { unavailableModels }) } };
}
