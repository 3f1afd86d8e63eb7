import type { Usage } from '../../canonical/index.js';

/** `usage` of a Messages response (and of `message_start.message`). */
export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  output_tokens_details: { thinking_tokens: number } | null;
  server_tool_use: Record<string, number> | null;
  service_tier: string | null;
  inference_geo: string | null;
  speed: string | null;
}

/** `message_delta.usage`: cumulative totals; a null count leaves the client's value as it was. */
export interface MessagesDeltaUsage {
  input_tokens: number | null;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  output_tokens_details: { thinking_tokens: number } | null;
  server_tool_use: Record<string, number> | null;
}

/** Anthropic `input_tokens` excludes cache reads and writes; canonical `inputTokens` includes them. */
function uncachedInputTokens(usage: Usage): number | undefined {
  if (usage.inputTokens === undefined) return undefined;
  return Math.max(0, usage.inputTokens - (usage.cachedInputTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}

function thinkingDetails(usage: Usage): MessagesUsage['output_tokens_details'] {
  return usage.reasoningTokens === undefined ? null : { thinking_tokens: usage.reasoningTokens };
}

/**
 * Canonical usage → response `usage`. The SDK types require the object and its input and output
 * counts, so those are 0 when unknown; the cache counts are nullable, so an unknown one is null
 * (nothing rather than 0).
 */
export function encodeMessagesUsage(usage: Usage): MessagesUsage {
  return {
    input_tokens: uncachedInputTokens(usage) ?? 0,
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? null,
    cache_read_input_tokens: usage.cachedInputTokens ?? null,
    cache_creation: null,
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
    service_tier: null,
    inference_geo: null,
    speed: null,
  };
}

/** Canonical usage → `message_delta.usage`; unknown counts are null (the client keeps `message_start`'s). */
export function encodeMessagesDeltaUsage(usage: Usage): MessagesDeltaUsage {
  return {
    input_tokens: uncachedInputTokens(usage) ?? null,
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? null,
    cache_read_input_tokens: usage.cachedInputTokens ?? null,
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
  };
}

/** The usage counts an Anthropic body or event may carry (every one optional or nullable). */
export interface MessagesWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Anthropic usage → canonical: input becomes the total (uncached + cache reads + cache writes).
 * Anthropic sends zero cache counts as 0; `output_tokens_details` and `cache_creation` are newer and
 * absent from older API versions, so an absent count stays undefined rather than 0.
 */
export function decodeMessagesUsage(wire: MessagesWireUsage): Usage {
  const usage: Usage = {};
  const cacheRead = wire.cache_read_input_tokens ?? undefined;
  const cacheWrite = wire.cache_creation_input_tokens ?? undefined;
  if (typeof wire.input_tokens === 'number') usage.inputTokens = wire.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0);
  if (typeof wire.output_tokens === 'number') usage.outputTokens = wire.output_tokens;
  if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  const writtenFor1h = wire.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof writtenFor1h === 'number') usage.cacheWrite1hTokens = writtenFor1h;
  const thinking = wire.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') usage.reasoningTokens = thinking;
  if (usage.inputTokens !== undefined && usage.outputTokens !== undefined) {
    usage.totalTokens = usage.inputTokens + usage.outputTokens;
  }
  return usage;
}
