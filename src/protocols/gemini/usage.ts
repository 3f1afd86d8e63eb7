import type { Usage } from '../../canonical/index.js';
import type { GeminiUsageMetadata } from './upstream-schema.js';

const known = (value: number | null | undefined): value is number => typeof value === 'number';

/**
 * Gemini `usageMetadata` → canonical. Input = prompt (cache hits included) + tool-use prompt;
 * output = candidates + thoughts (`candidatesTokenCount` excludes thinking); reasoning = thoughts.
 * Streamed values are cumulative: decode the last one, never sum.
 *
 * Gemini speaks proto3 JSON, which leaves out counts that are 0: once `candidatesTokenCount` is
 * there (the answer's output is reported), a missing thoughts or cache-hit count is 0. Before
 * that (early stream chunks carry only the prompt count), unknown counts stay undefined.
 */
export function decodeGeminiUsage(wire: GeminiUsageMetadata | null | undefined): Usage {
  const usage: Usage = {};
  if (!wire) return usage;
  const prompt = wire.promptTokenCount;
  const toolUse = wire.toolUsePromptTokenCount ?? 0;
  const reported = known(wire.candidatesTokenCount);
  const thoughts = wire.thoughtsTokenCount ?? (reported ? 0 : undefined);
  const cached = wire.cachedContentTokenCount ?? (reported ? 0 : undefined);
  if (known(prompt)) usage.inputTokens = prompt + toolUse;
  if (known(cached)) usage.cachedInputTokens = cached;
  if (known(wire.candidatesTokenCount)) {
    usage.outputTokens = wire.candidatesTokenCount + (thoughts ?? 0);
  } else if (known(wire.totalTokenCount) && known(prompt) && wire.totalTokenCount > prompt + toolUse) {
    // No visible output (blocked, all thinking): what is left of the total is output.
    usage.outputTokens = wire.totalTokenCount - prompt - toolUse;
  } else if (known(thoughts)) {
    usage.outputTokens = thoughts;
  }
  if (known(thoughts)) usage.reasoningTokens = thoughts;
  if (known(wire.totalTokenCount)) usage.totalTokens = wire.totalTokenCount;
  return usage;
}
