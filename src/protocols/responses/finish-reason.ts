import type { FinishReason } from '../../canonical/index.js';

export type ResponsesStatus = 'completed' | 'incomplete' | 'failed';

/** Responses has no finish reason: the answer's end is told by `status` and `incomplete_details`. */
export interface ResponsesTerminalState {
  status: ResponsesStatus;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

/**
 * Canonical → wire. When the answer holds tool calls it is `completed` (that is how Responses
 * says "tool calls requested"), whatever the provider said, unless generation failed.
 */
export function encodeResponsesFinishReason(finishReason: FinishReason, hasToolCalls: boolean): ResponsesTerminalState {
  if (finishReason.unified === 'error') return { status: 'failed', incomplete_details: null };
  if (hasToolCalls) return { status: 'completed', incomplete_details: null };
  switch (finishReason.unified) {
    case 'length':
      return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    default:
      return { status: 'completed', incomplete_details: null };
  }
}

/** Wire → canonical; `raw` is the incomplete reason when there is one, else the status. */
export function decodeResponsesFinishReason(status: string, incompleteReason: string | undefined, hasToolCalls: boolean): FinishReason {
  const raw = status === 'incomplete' && incompleteReason !== undefined ? incompleteReason : status;
  switch (status) {
    case 'completed':
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw };
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw };
      if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw };
      return { unified: 'other', raw };
    case 'failed':
      return { unified: 'error', raw };
    default:
      return { unified: 'other', raw };
  }
}
