export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** Why generation ended: one shared value, plus the provider's own word for it. */
export interface FinishReason {
  unified: UnifiedFinishReason;
  raw?: string;
}
