import { describe, expect, it } from 'vitest';
import { resolveAnthropicOptions, resolveDefaultMaxTokens } from '../../../src/providers/anthropic/options.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';

describe('resolveAnthropicOptions', () => {
  it("should default to Anthropic's API, version 2023-06-01 and the key from ANTHROPIC_API_KEY", () => {
    const resolved = resolveAnthropicOptions({}, { ANTHROPIC_API_KEY: 'sk-ant-env' });
    expect(resolved).toMatchObject({
      id: 'anthropic',
      baseURL: 'https://api.anthropic.com',
      headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-env' },
      transport: { headersTimeoutMs: 600_000, bodyTimeoutMs: 600_000 },
      defaultMaxTokens: undefined,
    });
  });

  it('should let given headers win and leave the caller options unchanged', () => {
    const options = { apiKey: 'k', headers: { 'anthropic-version': '2026-10-21' }, betas: ['a', 'b'] };
    const copy = structuredClone(options);
    const resolved = resolveAnthropicOptions(options, {});
    expect(resolved.headers).toEqual({ 'anthropic-version': '2026-10-21', 'x-api-key': 'k', 'anthropic-beta': 'a,b' });
    expect(options).toEqual(copy);
  });

  it('should refuse a configuration without any key with a coded error showing a correct value', () => {
    const error = gatewayErrorOf(() => resolveAnthropicOptions({}, {}));
    expect(error.code).toBe('CONFIG_PROVIDER_API_KEY_MISSING');
    expect(error.message).toContain('apiKey');
    expect(resolveAnthropicOptions({ headers: { authorization: 'Bearer proxy' } }, {}).headers).not.toHaveProperty('x-api-key');
  });

  it('should pick the longest matching model prefix for the default max_tokens', () => {
    const resolved = resolveAnthropicOptions({ apiKey: 'k', maxTokensByModel: { claude: 2000, 'claude-opus-4': 32000 } }, {});
    expect(resolveDefaultMaxTokens(resolved, 'claude-opus-4-1')).toBe(32000);
    expect(resolveDefaultMaxTokens(resolved, 'claude-haiku-4-5')).toBe(2000);
    expect(resolveDefaultMaxTokens(resolved, 'other')).toBe(4096);
  });

  it("should take the model's output limit when no default is configured, and let a configured one win", () => {
    const plain = resolveAnthropicOptions({ apiKey: 'k' }, {});
    expect(resolveDefaultMaxTokens(plain, 'claude-x', 64_000)).toBe(64_000);
    expect(resolveDefaultMaxTokens(plain, 'claude-x')).toBe(4096);
    const configured = resolveAnthropicOptions({ apiKey: 'k', defaultMaxTokens: 1000, maxTokensByModel: { 'claude-opus': 32000 } }, {});
    expect(resolveDefaultMaxTokens(configured, 'claude-x', 64_000)).toBe(1000);
    expect(resolveDefaultMaxTokens(configured, 'claude-opus-4', 64_000)).toBe(32000);
  });
});

describe('createProviderFromConfig (anthropic)', () => {
  it('should build the adapter from configuration', () => {
    expect(createProviderFromConfig('claude', { type: 'anthropic', apiKey: 'sk-ant-config' })).toMatchObject({
      id: 'anthropic',
      protocol: 'messages',
    });
  });

  it('should refuse unknown options naming the field', () => {
    const error = gatewayErrorOf(() => createProviderFromConfig('claude', { type: 'anthropic', apiKey: 'k', maxTokens: 5 }));
    expect(error.code).toBe('CONFIG_PROVIDER_INVALID');
    expect(error.message).toContain('maxTokens');
  });
});
