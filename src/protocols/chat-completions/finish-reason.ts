import { finishReason, type FinishReason } from '../../canonical/index.js';

/** `finish_reason` values of a Chat completion choice. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/**
 * Canonical finish reason → Chat `finish_reason`. When the answer carries tool calls,
 * `callsFinish` (`tool_calls`, or `function_call` for the deprecated functions API) wins
 * whatever the provider said; `error` and `other` have no Chat word and read as `stop`.
 */
export function encodeChatFinishReason(finishReason: FinishReason, callsFinish?: 'tool_calls' | 'function_call'): ChatFinishReason {
  if (callsFinish !== undefined) return callsFinish;
  switch (finishReason.unified) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** Chat `finish_reason` → canonical, keeping the raw word. Unknown words are `other`. */
export function decodeChatFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return finishReason('stop', raw);
    case 'length':
      return finishReason('length', raw);
    case 'tool_calls':
    case 'function_call':
      return finishReason('tool-calls', raw);
    case 'content_filter':
      return finishReason('content-filter', raw);
    default:
      return finishReason('other', raw);
  }
}
