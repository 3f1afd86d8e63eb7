export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** Why generation ended: one shared value, plus the provider's own word for it. */
export interface FinishReason {
  unified: UnifiedFinishReason;
  raw?: string;
}

/**
 * A finish reason with the provider's word when it gave one (`raw` absent, not undefined, when it
 * did not): two literals, no spread, as hot-path rule 1 asks (docs/architecture.md#hot-path-rules).
 */
export function finishReason(unified: UnifiedFinishReason, raw: string | null | undefined): FinishReason {
  return raw == null ? { unified } : { unified, raw };
}
