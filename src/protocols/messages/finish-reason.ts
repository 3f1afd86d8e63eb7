import { finishReason, type FinishReason } from '../../canonical/index.js';

export type MessagesStopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/** Anthropic `stop_reason` → canonical finish reason (raw kept). */
export function decodeMessagesFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return finishReason('stop', raw);
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return finishReason('length', raw);
    case 'tool_use':
      return finishReason('tool-calls', raw);
    case 'refusal':
      return finishReason('content-filter', raw);
    default:
      return finishReason('other', raw);
  }
}

function isMessagesStopReason(raw: string | undefined): raw is MessagesStopReason {
  return decodeMessagesFinishReason(raw).unified !== 'other';
}

export interface EncodeMessagesFinishReasonOptions {
  /** The answer contains tool calls: always `tool_use`, whatever the provider said. */
  hasToolCalls: boolean;
  /** The stop sequence that fired, when known. */
  stopSequence?: string;
}

/**
 * Canonical finish reason → Anthropic `stop_reason`. A raw Anthropic value with the same
 * meaning is kept (`pause_turn`, `model_context_window_exceeded`); other vendors' words never
 * reach the client. `tool_use` is reported exactly when there are tool calls.
 */
export function encodeMessagesFinishReason(
  finishReason: FinishReason,
  { hasToolCalls, stopSequence }: EncodeMessagesFinishReasonOptions,
): MessagesStopReason {
  if (hasToolCalls) return 'tool_use';
  const { unified, raw } = finishReason;
  if (isMessagesStopReason(raw) && raw !== 'tool_use' && decodeMessagesFinishReason(raw).unified === unified) return raw;
  switch (unified) {
    case 'stop':
      return stopSequence === undefined ? 'end_turn' : 'stop_sequence';
    case 'length':
      return 'max_tokens';
    case 'content-filter':
      return 'refusal';
    case 'tool-calls':
    case 'error':
    case 'other':
      return 'end_turn';
  }
}
