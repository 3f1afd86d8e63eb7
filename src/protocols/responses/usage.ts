import type { Usage } from '../../canonical/index.js';

/** The wire usage object; every count is required by the SDK type. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/**
 * Canonical → wire; null when the upstream reported neither input nor output (the SDK types make
 * `usage` optional, and it is null until the answer ends): nothing rather than 0 tokens. Otherwise
 * an unknown count becomes 0, because the wire requires every count; the total is computed when unknown.
 */
export function encodeResponsesUsage(usage: Usage): ResponsesUsage | null {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/**
 * Wire → canonical. Responses counts mean what canonical counts mean (input includes cache,
 * output includes reasoning), so nothing is added or subtracted; absent counts stay undefined (the wire
 * requires every count, zeros included, so an absent one is not a zero).
 */
export function decodeResponsesUsage(raw: unknown): Usage {
  const wire = record(raw);
  const inputDetails = record(wire.input_tokens_details);
  const outputDetails = record(wire.output_tokens_details);
  const usage: Usage = {};
  const fields: [keyof Usage, number | undefined][] = [
    ['inputTokens', count(wire.input_tokens)],
    ['outputTokens', count(wire.output_tokens)],
    ['cachedInputTokens', count(inputDetails.cached_tokens)],
    ['cacheWriteTokens', count(inputDetails.cache_write_tokens)],
    ['reasoningTokens', count(outputDetails.reasoning_tokens)],
    ['totalTokens', count(wire.total_tokens)],
  ];
  for (const [key, value] of fields) if (value !== undefined) usage[key] = value;
  return usage;
}
