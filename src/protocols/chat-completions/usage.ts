import type { Usage } from '../../canonical/index.js';
import { definedFields } from '../defined-fields.js';

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
 * Canonical usage → Chat `usage`. The three top-level counts are required by the SDK type,
 * so an unknown count is sent as 0 there; unknown details are left out.
 */
export function encodeChatUsage(usage: Usage): ChatUsage {
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

/** Chat `usage` → canonical; missing counts stay `undefined`. */
export function decodeChatUsage(usage: ChatUsageInput | null | undefined): Usage {
  const counts: Usage = {
    inputTokens: usage?.prompt_tokens ?? undefined,
    outputTokens: usage?.completion_tokens ?? undefined,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? undefined,
    cacheWriteTokens: usage?.prompt_tokens_details?.cache_write_tokens ?? undefined,
    reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? undefined,
    totalTokens: usage?.total_tokens ?? undefined,
  };
  return definedFields(counts);
}
