import { describe, expect, it } from 'vitest';
import { costOf } from '../../src/catalog/index.js';
import { silentLogger } from '../../src/logger.js';
import { checkOptions } from '../../src/gateway/options.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

const providers = { anthropic: { apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9' } };

describe('models[].price in the options', () => {
  it('should take 1-hour cache writes, reasoning and tiers, and price with them', () => {
    const { modelList } = checkOptions({
      logger: silentLogger,
      apiKeys: ['sk-gateway-key-0123456789'],
      providers,
      models: [
        {
          id: 'claude',
          provider: 'anthropic',
          upstreamModel: 'claude-sonnet-4-5',
          price: { input: 2, output: 10, cacheWrite: 2.5, cacheWrite1h: 4, tiers: [{ aboveInputTokens: 100_000, input: 4 }] },
        },
      ],
    });
    const price = modelList[0]!.price!;
    expect(price.source).toBe('config');
    // Above 100k the tier's input price, the base output price: 150,000 × 4,000 + 1,000 × 10,000
    expect(costOf({ inputTokens: 150_000, outputTokens: 1_000 }, price.price)).toBe(610_000_000);
    expect(costOf({ inputTokens: 1_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 1_000, outputTokens: 0 }, price.price)).toBe(
      4_000_000,
    );
  });

  it('should keep a price of the first four fields valid, and refuse an unknown one', () => {
    const base = { logger: silentLogger, apiKeys: ['sk-gateway-key-0123456789'], providers };
    expect(() =>
      checkOptions({
        ...base,
        models: [{ id: 'c', provider: 'anthropic', price: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 } }],
      }),
    ).not.toThrow();
    const error = gatewayErrorOf(() =>
      checkOptions({ ...base, models: [{ id: 'c', provider: 'anthropic', price: { input: 3, output: 15, cacheRead: 0.3 } as never }] }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('cacheRead');
  });
});
