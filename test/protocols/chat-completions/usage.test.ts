import { describe, expect, it } from 'vitest';
import { decodeChatUsage, encodeChatUsage } from '../../../src/protocols/chat-completions/usage.js';

describe('encodeChatUsage', () => {
  it('should encode every known count with cache and reasoning details', () => {
    expect(
      encodeChatUsage({
        inputTokens: 120,
        outputTokens: 40,
        cachedInputTokens: 100,
        cacheWriteTokens: 10,
        reasoningTokens: 30,
        totalTokens: 160,
      }),
    ).toEqual({
      prompt_tokens: 120,
      completion_tokens: 40,
      total_tokens: 160,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 30 },
    });
  });

  it('should send 0 for unknown required counts, compute the total and leave unknown details out', () => {
    expect(encodeChatUsage({ outputTokens: 5 })).toEqual({ prompt_tokens: 0, completion_tokens: 5, total_tokens: 5 });
  });

  it('should say nothing, rather than 0 tokens, when the upstream reported no usage', () => {
    expect(encodeChatUsage({})).toBeUndefined();
  });
});

describe('decodeChatUsage', () => {
  it('should decode counts and keep missing ones undefined', () => {
    expect(
      decodeChatUsage({
        prompt_tokens: 9,
        completion_tokens: 3,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: null },
      }),
    ).toEqual({ inputTokens: 9, outputTokens: 3, totalTokens: 12, cachedInputTokens: 4 });
    expect(decodeChatUsage(undefined)).toEqual({});
  });
});
