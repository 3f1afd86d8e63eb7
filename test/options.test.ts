import { describe, expect, it } from 'vitest';
import { GatewayError } from '../src/canonical/index.js';
import { silentLogger } from '../src/logger.js';
import { resolveOptions, type GatewayOptions } from '../src/options.js';
import { createMockProvider } from '../src/providers/mock/index.js';

function configErrorCode(options: GatewayOptions): string | undefined {
  try {
    resolveOptions({ logger: silentLogger, ...options });
    return undefined;
  } catch (error) {
    return GatewayError.isInstance(error) ? error.code : 'not-a-gateway-error';
  }
}

describe('resolveOptions', () => {
  it('should serve the mock model without keys by default', () => {
    const resolved = resolveOptions({ logger: silentLogger });
    expect(resolved.modelList.map((model) => model.id)).toEqual(['mock']);
    // No key needed: a call without one is let in.
    expect(resolved.stages.authenticate.authenticate({}, false)).toEqual({});
    expect(resolved.bodyLimit).toBe(32 * 1024 * 1024);
  });

  it('should leave the caller\'s object unchanged', () => {
    const options: GatewayOptions = { apiKeys: ['k'], models: [{ id: 'a', provider: 'mock' }], logger: silentLogger };
    const copy = structuredClone({ ...options, logger: undefined });
    resolveOptions(options);
    expect({ ...options, logger: undefined }).toEqual(copy);
  });

  it('should warn about unknown keys', () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_object: object, message?: string) => warnings.push(message ?? '') };
    resolveOptions({ logger, apiKeys: ['k'], bodyLimt: '1mb' } as GatewayOptions);
    expect(warnings.some((warning) => warning.includes("'bodyLimt'"))).toBe(true);
  });

  it('should check configured keys, and accept a verifier function', async () => {
    const { authenticate } = resolveOptions({ logger: silentLogger, apiKeys: ['secret-1'] }).stages;
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    expect(authenticate.authenticate(bearer('secret-1'), false)).toEqual({});
    expect(() => authenticate.authenticate(bearer('secret-2'), false)).toThrow(expect.objectContaining({ code: 'INVALID_API_KEY' }));
    expect(() => authenticate.authenticate({}, false)).toThrow(expect.objectContaining({ code: 'MISSING_API_KEY' }));
    const custom = resolveOptions({ logger: silentLogger, apiKeys: async (key) => key.startsWith('team-') }).stages.authenticate;
    await expect(custom.authenticate(bearer('team-a'), false)).resolves.toEqual({});
    await expect(custom.authenticate(bearer('other'), false)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
  });

  it('should build built-in providers from configuration, with type defaulting to the key', async () => {
    const resolved = resolveOptions({
      logger: silentLogger,
      apiKeys: ['k'],
      providers: { mock: { reply: 'configured' }, echo: { type: 'mock', reply: 'echo' } },
      models: [
        { id: 'a', provider: 'mock' },
        { id: 'b', provider: 'echo' },
      ],
    });
    const context = { signal: new AbortController().signal, requestId: 'r', gatewayModel: 'b', logger: silentLogger };
    const request = { model: 'b', stream: false, messages: [] };
    expect((await resolved.models.get('b')!.adapter.generate(request, context)).content).toEqual([{ type: 'text', text: 'echo' }]);
    expect((await resolved.models.get('a')!.adapter.generate(request, context)).content).toEqual([{ type: 'text', text: 'configured' }]);
  });

  describe('config errors', () => {
    it('should require keys once a real provider is configured', () => {
      expect(configErrorCode({ providers: { other: createMockProvider() }, models: [{ id: 'x', provider: 'other' }] })).toBe(
        'CONFIG_API_KEYS_MISSING',
      );
      expect(
        configErrorCode({ requireApiKey: false, providers: { other: createMockProvider() }, models: [{ id: 'x', provider: 'other' }] }),
      ).toBeUndefined();
    });

    it('should name unknown providers, provider types, bad provider options, duplicate ids and bad values', () => {
      expect(configErrorCode({ models: [{ id: 'x', provider: 'nope' }] })).toBe('CONFIG_UNKNOWN_PROVIDER');
      expect(configErrorCode({ apiKeys: ['k'], providers: { p: { type: 'nope' } } })).toBe('CONFIG_UNKNOWN_PROVIDER_TYPE');
      expect(configErrorCode({ apiKeys: ['k'], providers: { mock: { chunks: -1 } } })).toBe('CONFIG_PROVIDER_INVALID');
      expect(
        configErrorCode({
          models: [
            { id: 'x', provider: 'mock' },
            { id: 'y', provider: 'mock', aliases: ['x'] },
          ],
        }),
      ).toBe('CONFIG_MODEL_ID_DUPLICATE');
      expect(configErrorCode({ bodyLimit: 'huge' })).toBe('CONFIG_INVALID');
    });

    it('should refuse a request policy with an unknown action, field or cap, at the gateway, a key or a model', () => {
      expect(configErrorCode({ requestPolicy: { fields: { store: 'maybe' as never } } })).toBe('CONFIG_INVALID');
      expect(configErrorCode({ requestPolicy: { keys: { ci: { maxChoices: 0 } } } })).toBe('CONFIG_INVALID');
      expect(configErrorCode({ models: [{ id: 'm', provider: 'mock', requestPolicy: { nope: 1 } as never }] })).toBe('CONFIG_INVALID');
      expect(
        configErrorCode({
          requestPolicy: { tools: { web_search: 'allow' }, maxOutputTokens: 100, keys: { options: { anthropicBetas: { '*': 'allow' } } } },
          models: [{ id: 'm', provider: 'mock', requestPolicy: { fields: { service_tier: 'allow' } } }],
        }),
      ).toBeUndefined();
    });
  });

  it("should resolve the request policy without changing the caller's policy objects", () => {
    const requestPolicy = { fields: { store: 'allow' as const }, keys: { ci: { maxChoices: 2 } } };
    const models = [{ id: 'm', provider: 'mock', requestPolicy: { maxOutputTokens: 10 } }];
    const copy = structuredClone({ requestPolicy, models });
    const resolved = resolveOptions({ logger: silentLogger, requestPolicy, models });
    expect({ requestPolicy, models }).toEqual(copy);
    expect(resolved.requestPolicy.gateway.maxChoices).toBe(1);
    expect(resolved.requestPolicy.models.get('m')?.maxOutputTokens).toBe(10);
  });
});
