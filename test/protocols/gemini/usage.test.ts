import { describe, expect, it } from 'vitest';
import { decodeGeminiUsage } from '../../../src/protocols/gemini/index.js';

describe('decodeGeminiUsage', () => {
  it('should add thoughts to output and tool-use prompt tokens to input', () => {
    expect(
      decodeGeminiUsage({
        promptTokenCount: 100,
        cachedContentTokenCount: 60,
        toolUsePromptTokenCount: 20,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 50,
        totalTokenCount: 200,
      }),
    ).toEqual({ inputTokens: 120, cachedInputTokens: 60, outputTokens: 80, reasoningTokens: 50, totalTokens: 200 });
  });

  it('should leave unknown counts undefined, never 0', () => {
    expect(decodeGeminiUsage({ promptTokenCount: 42, totalTokenCount: 42 })).toEqual({ inputTokens: 42, totalTokens: 42 });
    expect(decodeGeminiUsage(undefined)).toEqual({});
  });

  it('should derive output from the total when there is no candidates count', () => {
    expect(decodeGeminiUsage({ promptTokenCount: 10, totalTokenCount: 90 })).toMatchObject({ outputTokens: 80 });
  });
});
