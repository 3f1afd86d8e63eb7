import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import { checkOptions, type GatewayOptions } from '../../src/gateway/options.js';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';
import { createMockProvider } from '../../src/providers/mock/index.js';

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
    expect(resolved.stages.authenticate({}, false)).toEqual({});
    expect(resolved.bodyLimit).toBe(32 * 1024 * 1024);
  });

  it("should leave the caller's object unchanged", () => {
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
    expect(authenticate(bearer('secret-1'), false)).toEqual({});
    expect(() => authenticate(bearer('secret-2'), false)).toThrow(expect.objectContaining({ code: 'INVALID_API_KEY' }));
    expect(() => authenticate({}, false)).toThrow(expect.objectContaining({ code: 'MISSING_API_KEY' }));
    const custom = resolveOptions({ logger: silentLogger, apiKeys: async (key) => key.startsWith('team-') }).stages.authenticate;
    await expect(custom(bearer('team-a'), false)).resolves.toEqual({});
    await expect(custom(bearer('other'), false)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
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

    it('should refuse a rate limit burst above its limit or below 1', () => {
      expect(configErrorCode({ limits: { perKey: { requestsPerMinute: 50, burst: { requests: 1 } } } })).toBeUndefined();
      expect(configErrorCode({ limits: { perKey: { requestsPerMinute: 50, burst: { requests: 51 } } } })).toBe('CONFIG_INVALID');
      expect(configErrorCode({ limits: { perKey: { perModel: { m: { tokensPerMinute: 100, burst: { tokens: 101 } } } } } })).toBe(
        'CONFIG_INVALID',
      );
      expect(configErrorCode({ models: [{ id: 'm', provider: 'mock', limits: { requestsPerMinute: 10, burst: { requests: 0 } } }] })).toBe(
        'CONFIG_INVALID',
      );
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

  describe('config error messages', () => {
    it('should say a key read from an unset environment variable is undefined, and ask about the variable', () => {
      // The README's Express snippet: gateway({ apiKeys: [process.env.SWITCHYARD_API_KEY] }) with the variable unset.
      const error = gatewayErrorOf(() =>
        resolveOptions({ logger: silentLogger, apiKeys: [process.env.SWITCHYARD_TEST_UNSET_VARIABLE as string] }),
      );
      expect(error).toMatchObject({ code: 'CONFIG_INVALID', param: 'apiKeys[0]' });
      expect(error.message).toBe(
        'Invalid gateway option: apiKeys[0] is undefined — is the environment variable you read it from (e.g. SWITCHYARD_API_KEY) set?',
      );
      expect(gatewayErrorOf(() => resolveOptions({ logger: silentLogger, apiKeys: ['k', ''] })).message).toBe(
        'Invalid gateway option: apiKeys[1] is an empty string — is the environment variable you read it from (e.g. SWITCHYARD_API_KEY) set?',
      );
    });

    it('should say what the whole of apiKeys must be when it is neither a list nor a function', () => {
      expect(gatewayErrorOf(() => resolveOptions({ logger: silentLogger, apiKeys: 'sk-one' as never })).message).toBe(
        'Invalid gateway option: apiKeys must be a list of keys (strings) or a function (key) => boolean.',
      );
    });

    it('should say what a field must be and what it got', () => {
      expect(gatewayErrorOf(() => resolveOptions({ logger: silentLogger, keyCacheTtlMs: -5 })).message).toBe(
        'Invalid gateway option: keyCacheTtlMs must be at least 0 (got -5).',
      );
      expect(gatewayErrorOf(() => resolveOptions({ logger: silentLogger, bodyLimit: 'huge' })).message).toBe(
        "Invalid gateway option: bodyLimit must be a number of bytes, or a size like '32mb'.",
      );
    });
  });

  describe('unavailableModels', () => {
    it('should take ids with a reason, and refuse an entry without one', () => {
      const resolved = resolveOptions({ logger: silentLogger, unavailableModels: [{ id: 'gpt-5.4', reason: 'Set OPENAI_API_KEY.' }] });
      expect(resolved.unavailableModels?.get('gpt-5.4')).toBe('Set OPENAI_API_KEY.');
      expect(configErrorCode({ unavailableModels: [{ id: 'gpt-5.4' } as never] })).toBe('CONFIG_INVALID');
    });
  });

  describe('checkOptions', () => {
    it('should make every check without opening the database', () => {
      const checked = checkOptions({ logger: silentLogger, database: '/nonexistent/dir/switchyard.db', adminKey: 'a'.repeat(16) });
      expect(checked.modelList.map((model) => model.id)).toEqual(['mock']);
      expect(checked.requireApiKey).toBe(true);
      expect(gatewayErrorOf(() => checkOptions({ logger: silentLogger, adminKey: 'a'.repeat(16) })).code).toBe(
        'CONFIG_ADMIN_NEEDS_DATABASE',
      );
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
