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

  describe('counts Gemini leaves out because they are zero', () => {
    it('should count missing thoughts and cache hits as 0 once the candidates count is reported', () => {
      // proto3 JSON omits zero counts: a model that did not think sends no thoughtsTokenCount.
      expect(decodeGeminiUsage({ promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 })).toEqual({
        inputTokens: 40,
        cachedInputTokens: 0,
        outputTokens: 12,
        reasoningTokens: 0,
        totalTokens: 52,
      });
    });

    it('should keep thoughts unknown while the answer has reported no output count', () => {
      // Early stream chunks carry only the prompt count: output is not known yet, so neither is reasoning.
      const early = decodeGeminiUsage({ promptTokenCount: 40, totalTokenCount: 40 });
      expect(early.reasoningTokens).toBeUndefined();
      expect(early.cachedInputTokens).toBeUndefined();
    });
  });

  it('should derive output from the total when there is no candidates count', () => {
    expect(decodeGeminiUsage({ promptTokenCount: 10, totalTokenCount: 90 })).toMatchObject({ outputTokens: 80 });
  });
});
