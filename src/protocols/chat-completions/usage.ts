import type { Usage } from '../../canonical/index.js';

/** Chat `usage` (openai `CompletionUsage`): prompt tokens include cached ones, completion tokens include reasoning. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

/** Chat `usage` as an upstream may send it: any count may be missing or null. */
export interface ChatUsageInput {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * Canonical usage → Chat `usage`; undefined when the upstream reported neither input nor output
 * (the SDK types make `usage` optional: say nothing rather than 0 tokens). The three top-level
 * counts are required by the SDK type, so when one is known an unknown other is sent as 0;
 * unknown details are left out.
 */
export function encodeChatUsage(usage: Usage): ChatUsage | undefined {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return undefined;
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  const wire: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: usage.totalTokens ?? prompt + completion,
  };
  const { cachedInputTokens: cached, cacheWriteTokens: cacheWrite, reasoningTokens: reasoning } = usage;
  if (cached !== undefined || cacheWrite !== undefined) {
    wire.prompt_tokens_details = {
      ...(cached === undefined ? {} : { cached_tokens: cached }),
      ...(cacheWrite === undefined ? {} : { cache_write_tokens: cacheWrite }),
    };
  }
  if (reasoning !== undefined) wire.completion_tokens_details = { reasoning_tokens: reasoning };
  return wire;
}

/**
 * Chat `usage` → canonical; missing counts stay `undefined`. OpenAI sends zero counts (`cached_tokens: 0`,
 * `reasoning_tokens: 0`), so an absent one is not a zero: OpenAI-compatible servers (Ollama) leave the
 * details out even for a model that reasons.
 */
export function decodeChatUsage(usage: ChatUsageInput | null | undefined): Usage {
  const counts: Usage = {};
  if (usage === undefined || usage === null) return counts;
  // Field by field rather than a literal filtered afterwards: this runs on every answer.
  if (typeof usage.prompt_tokens === 'number') counts.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') counts.outputTokens = usage.completion_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') counts.cachedInputTokens = cached;
  const cacheWrite = usage.prompt_tokens_details?.cache_write_tokens;
  if (typeof cacheWrite === 'number') counts.cacheWriteTokens = cacheWrite;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') counts.reasoningTokens = reasoning;
  if (typeof usage.total_tokens === 'number') counts.totalTokens = usage.total_tokens;
  return counts;
}
