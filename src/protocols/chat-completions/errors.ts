import { openaiErrorCode, type GatewayError } from '../../canonical/index.js';
import type { RenderedError } from '../codec.js';

/** The Chat (OpenAI) error body. */
export interface ChatErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** OpenAI clients know no 529 (Anthropic "overloaded"); it becomes 503. */
function chatStatus(status: number): number {
  return status === 529 ? 503 : status;
}

/** The `type` the protocol doc recommends for a status (OpenAI's own `insufficient_quota` for a spent budget); clients key on the status, not on it. */
function chatErrorType(status: number, kind: GatewayError['kind']): string {
  if (kind === 'quota') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'service_unavailable_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The `error` object of the Chat error body (also sent in-band in a stream). */
export function encodeChatErrorBody(error: GatewayError): ChatErrorBody {
  return {
    error: {
      message: error.message,
      type: chatErrorType(chatStatus(error.status), error.kind),
      param: error.param ?? null,
      code: openaiErrorCode(error.code),
    },
  };
}

/**
 * A GatewayError as an OpenAI error response: `{error:{message,type,param,code}}`, the
 * `x-request-id` header the SDK reads, and `retry-after`/`retry-after-ms` when the error has a
 * wait. (`x-should-retry` is added where every protocol's error is sent: http/send-error.)
 */
export function renderChatError(error: GatewayError, requestId: string): RenderedError {
  const headers: Record<string, string> = { 'x-request-id': requestId };
  if (error.retryAfter !== undefined) {
    headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfter)));
    headers['retry-after-ms'] = String(Math.max(0, Math.round(error.retryAfter * 1000)));
  }
  return { status: chatStatus(error.status), body: encodeChatErrorBody(error), headers };
}
