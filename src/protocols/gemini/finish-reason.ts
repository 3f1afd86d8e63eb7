import { finishReason, GatewayError, upstreamErrorCode, type FinishReason } from '../../canonical/index.js';

/** Finish reasons that mean the model produced an invalid call or answer: reported as an error, never as success. */
const failedFinishReasons = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS', 'MALFORMED_RESPONSE']);

const filteredFinishReasons = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'LANGUAGE',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

export interface DecodeGeminiFinishReasonOptions {
  /** The answer holds function calls: `STOP` then means `tool-calls` (they may have come in an earlier chunk). */
  hasToolCalls: boolean;
}

/**
 * Gemini `finishReason` → canonical (raw kept). `STOP` with calls → `tool-calls`; token limits →
 * `length`; every safety/recitation filter → `content-filter`; malformed calls → `error` (see
 * `geminiFinishError`); anything else (`OTHER`, unknown values) → `other`.
 */
export function decodeGeminiFinishReason(raw: string | null | undefined, { hasToolCalls }: DecodeGeminiFinishReasonOptions): FinishReason {
  if (raw === 'STOP') return finishReason(hasToolCalls ? 'tool-calls' : 'stop', raw);
  if (raw === 'MAX_TOKENS' || raw === 'CONTINUATION') return finishReason('length', raw);
  if (raw != null && filteredFinishReasons.has(raw)) return finishReason('content-filter', raw);
  if (raw != null && failedFinishReasons.has(raw)) return finishReason('error', raw);
  return finishReason(hasToolCalls ? 'tool-calls' : 'other', raw);
}

/**
 * The error for an answer that must not pass as a success: a malformed/unexpected function call
 * (retryable: the model usually gets it right the next time), or an empty answer with no usable reason.
 */
export function geminiFinishError(raw: string | undefined, finishMessage: string | undefined): GatewayError {
  const detail = finishMessage ? `: ${finishMessage}` : '.';
  return new GatewayError({
    kind: 'upstream',
    // Gemini's finish reason is the code (GEMINI_SAFETY), as its own error statuses are.
    code: upstreamErrorCode(`GEMINI_${raw ?? 'EMPTY_ANSWER'}`),
    retryable: true,
    message:
      raw === undefined || !failedFinishReasons.has(raw)
        ? `Google Gemini returned no content (finish reason ${raw ?? 'missing'})${detail}`
        : `Google Gemini ended the answer with ${raw}; the model produced an invalid function call or response${detail}`,
  });
}
