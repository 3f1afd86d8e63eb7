import type { GatewayError } from '../../canonical/index.js';
import type { RenderedError } from '../codec.js';

/** `{type:'error', error:{type, message}, request_id}` — Anthropic's error body, also the in-band stream error. */
export interface MessagesErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/**
 * Overload is 529 on this wire (the SDKs' OverloadedError); a spent budget is Anthropic's 402
 * `billing_error` (a 429 would have Claude Code retry for nothing); other errors keep their status.
 */
function renderStatus(error: GatewayError): number {
  if (error.kind === 'quota') return 402;
  return error.kind === 'overloaded' ? 529 : error.status;
}

/** Anthropic `error.type` for an HTTP status (docs.claude.com /en/api/errors). */
function renderErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 408:
    case 504:
      return 'timeout_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

export function renderMessagesErrorBody(error: GatewayError, requestId: string): MessagesErrorBody {
  return {
    type: 'error',
    error: { type: renderErrorType(renderStatus(error)), message: error.message },
    request_id: requestId,
  };
}

/**
 * GatewayError → Anthropic error response: status (overloaded → 529), body, and headers
 * (`request-id`, which the SDKs expose as `requestID`; `retry-after`/`retry-after-ms` when set).
 */
export function renderMessagesError(error: GatewayError, requestId: string): RenderedError {
  const headers: Record<string, string> = { 'request-id': requestId };
  if (error.retryAfter !== undefined) {
    headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfter)));
    headers['retry-after-ms'] = String(Math.max(0, Math.round(error.retryAfter * 1000)));
  }
  return { status: renderStatus(error), body: renderMessagesErrorBody(error, requestId), headers };
}
