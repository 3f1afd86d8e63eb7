import type { Usage } from '../../canonical/index.js';
import type { GeminiUsageMetadata } from './upstream-schema.js';

const known = (value: number | null | undefined): value is number => typeof value === 'number';

/**
 * Gemini `usageMetadata` → canonical. Input = prompt (cache hits included) + tool-use prompt;
 * output = candidates + thoughts (`candidatesTokenCount` excludes thinking); reasoning = thoughts.
 * Unknown counts stay undefined. Streamed values are cumulative: decode the last one, never sum.
 */
export function decodeGeminiUsage(wire: GeminiUsageMetadata | null | undefined): Usage {
  const usage: Usage = {};
  if (!wire) return usage;
  const prompt = wire.promptTokenCount;
  const toolUse = wire.toolUsePromptTokenCount ?? 0;
  const thoughts = wire.thoughtsTokenCount;
  if (known(prompt)) usage.inputTokens = prompt + toolUse;
  if (known(wire.cachedContentTokenCount)) usage.cachedInputTokens = wire.cachedContentTokenCount;
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
