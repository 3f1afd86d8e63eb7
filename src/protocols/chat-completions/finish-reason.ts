import type { FinishReason } from '../../canonical/index.js';

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

/** `unified` with the provider's word, when there is one: hot-path rule 1 (docs/architecture.md#hot-path-rules). */
function withRaw(unified: FinishReason['unified'], raw: string | null | undefined): FinishReason {
  return raw == null ? { unified } : { unified, raw };
}

/** Chat `finish_reason` → canonical, keeping the raw word. Unknown words are `other`. */
export function decodeChatFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return withRaw('stop', raw);
    case 'length':
      return withRaw('length', raw);
    case 'tool_calls':
    case 'function_call':
      return withRaw('tool-calls', raw);
    case 'content_filter':
      return withRaw('content-filter', raw);
    default:
      return withRaw('other', raw);
  }
}
