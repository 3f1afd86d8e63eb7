import { describe, expect, it } from 'vitest';
import { decodeResponsesUsage, encodeResponsesUsage } from '../../../src/protocols/responses/usage.js';

describe('encodeResponsesUsage', () => {
  it('should write every count, cache and reasoning details included', () => {
    expect(
      encodeResponsesUsage({
        inputTokens: 100,
        cachedInputTokens: 60,
        cacheWriteTokens: 10,
        outputTokens: 40,
        reasoningTokens: 25,
        totalTokens: 140,
      }),
    ).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 25 },
      total_tokens: 140,
    });
  });

  it('should write zeros the SDK type requires and compute the total when unknown', () => {
    expect(encodeResponsesUsage({ inputTokens: 9, outputTokens: 3 })).toEqual({
      input_tokens: 9,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 3,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 12,
    });
  });

  it('should say nothing (null, as before the answer ends), rather than 0 tokens, when the upstream reported no usage', () => {
    expect(encodeResponsesUsage({})).toBeNull();
  });
});

describe('decodeResponsesUsage', () => {
  it('should read counts without changing their meaning', () => {
    expect(
      decodeResponsesUsage({
        input_tokens: 36,
        input_tokens_details: { cached_tokens: 4 },
        output_tokens: 87,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 123,
      }),
    ).toEqual({ inputTokens: 36, cachedInputTokens: 4, outputTokens: 87, reasoningTokens: 12, totalTokens: 123 });
  });

  it('should leave absent counts undefined', () => {
    expect(decodeResponsesUsage({ output_tokens: 5 })).toEqual({ outputTokens: 5 });
    expect(decodeResponsesUsage(null)).toEqual({});
  });
});
