import { describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { resolveAnthropicOptions } from '../../src/providers/anthropic/options.js';
import { createProviderFromConfig } from '../../src/providers/create-provider.js';
import { resolveGeminiOptions } from '../../src/providers/gemini/options.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { resolveOpenAIResponsesOptions } from '../../src/providers/openai-responses/options.js';
import { DEFAULT_PROVIDER_TIMEOUT_MS } from '../../src/providers/provider-options.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

const factories: Record<string, (options: Record<string, unknown>) => unknown> = {
  openai: (options) => createOpenAIProvider({ apiKey: 'k', ...options }),
  'openai-responses': (options) => createOpenAIResponsesProvider({ apiKey: 'k', ...options }),
  'openai-compatible': (options) => createOpenAICompatibleProvider({ profile: 'ollama', ...options }),
  anthropic: (options) => resolveAnthropicOptions({ apiKey: 'k', ...options }, {}),
  gemini: (options) => resolveGeminiOptions({ apiKey: 'k', ...options }, {}),
};

describe('the provider template', () => {
  it.each(Object.keys(factories))('should validate the shared options of %s in its factory', (name) => {
    const factory = factories[name] as (options: Record<string, unknown>) => unknown;
    for (const bad of [{ timeoutMs: -1 }, { maxConnections: 0 }, { baseURL: 'ftp://x' }, { headers: { a: 1 } }, { nonsense: true }]) {
      const error = gatewayErrorOf(() => factory(bad));
      const field = Object.keys(bad)[0] as string;
      expect(error.code).toBe('CONFIG_PROVIDER_INVALID');
      expect(field === 'nonsense' ? error.message : error.param).toContain(field);
    }
  });

  it('should give every provider the same timeoutMs default', () => {
    expect(DEFAULT_PROVIDER_TIMEOUT_MS).toBe(600_000);
    const transports = [
      resolveAnthropicOptions({ apiKey: 'k' }, {}).transport,
      resolveGeminiOptions({ apiKey: 'k' }, {}).transport,
      resolveOpenAIResponsesOptions({ apiKey: 'k' }).transport,
    ];
    for (const transport of transports) expect(transport).toEqual({ headersTimeoutMs: 600_000, bodyTimeoutMs: 600_000 });
    expect(resolveAnthropicOptions({ apiKey: 'k', timeoutMs: 5000, maxConnections: 2 }, {}).transport).toEqual({
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 5000,
      connections: 2,
    });
  });

  it('should name a bad config-file option by its place in the configuration', () => {
    for (const type of ['openai', 'openai-responses', 'anthropic', 'gemini', 'openai-compatible', 'mock']) {
      const error = gatewayErrorOf(() =>
        createProviderFromConfig('mine', {
          type,
          apiKey: 'k',
          profile: type === 'openai-compatible' ? 'ollama' : undefined,
          timeoutMsx: 1,
        }),
      );
      expect(error.code).toBe('CONFIG_PROVIDER_INVALID');
      expect(error.message).toContain('providers.mine');
      expect(error.message).toContain('timeoutMsx');
    }
  });
});

describe('the provider specification version', () => {
  const adapter = (specificationVersion: unknown): ProviderAdapter =>
    ({ ...createMockProvider(), id: 'custom', specificationVersion }) as ProviderAdapter;
  const serve = (provider: ProviderAdapter) =>
    gateway({ logger: silentLogger, requireApiKey: false, providers: { custom: provider }, models: [{ id: 'm', provider: 'custom' }] });

  it('should accept v1 and an adapter that declares none', () => {
    expect(typeof serve(adapter('v1'))).toBe('function');
    expect(typeof serve(adapter(undefined))).toBe('function');
    expect(createMockProvider().specificationVersion).toBe('v1');
  });

  it('should refuse an adapter of a version the gateway does not speak, saying which', () => {
    const error = gatewayErrorOf(() => serve(adapter('v2')));
    expect(error.code).toBe('CONFIG_PROVIDER_SPEC_VERSION');
    expect(error.message).toContain("'custom'");
    expect(error.message).toContain('"v2"');
    expect(error.message).toContain("'v1'");
  });
});
