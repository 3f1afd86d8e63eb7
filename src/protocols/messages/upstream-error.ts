import { GatewayError, type GatewayErrorKind, upstreamErrorCode } from '../../canonical/index.js';
import { messagesUpstreamErrorSchema } from './upstream-schema.js';

/** The HTTP status an Anthropic `error.type` stands for (in-band stream errors carry no status). */
export function messagesErrorTypeStatus(type: string | undefined): number {
  switch (type) {
    case 'invalid_request_error':
      return 400;
    case 'authentication_error':
      return 401;
    case 'billing_error':
      return 402;
    case 'permission_error':
      return 403;
    case 'not_found_error':
      return 404;
    case 'conflict_error':
      return 409;
    case 'request_too_large':
      return 413;
    case 'rate_limit_error':
      return 429;
    case 'timeout_error':
      return 504;
    case 'overloaded_error':
      return 529;
    default:
      return 500;
  }
}

function kindOf(status: number, type: string | undefined): GatewayErrorKind {
  if (type === 'overloaded_error' || status === 529 || status === 503) return 'overloaded';
  switch (status) {
    case 401:
      return 'authentication';
    case 402:
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 408:
    case 504:
      return 'timeout';
    case 429:
      return 'rate_limit';
    default:
      return status >= 500 ? 'upstream' : 'invalid_request';
  }
}

function describeBody(status: number, body: unknown): string {
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return `Anthropic answered HTTP ${status}${text === '' ? '' : `: ${text}`}`;
}

export interface ParseMessagesErrorOptions {
  /** Anthropic's `x-should-retry` header, when sent: it overrides the status rule. */
  shouldRetry?: boolean;
}

/**
 * An Anthropic error answer (`{type:"error", error:{type, message}}`) → GatewayError: kind from
 * the status (529 and `overloaded_error` → `overloaded`), Anthropic's message kept, code
 * `UPSTREAM_<ERROR_TYPE>`. Retryable: 408, 409, 429 and 5xx/529, as the Anthropic SDKs retry.
 */
export function parseMessagesError(status: number, body: unknown, options: ParseMessagesErrorOptions = {}): GatewayError {
  const parsed = messagesUpstreamErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data.error : undefined;
  const type = error?.type ?? undefined;
  const message = error?.message ?? undefined;
  const statusRetry = status === 408 || status === 409 || status === 429 || status >= 500;
  return new GatewayError({
    kind: kindOf(status, type),
    code: upstreamErrorCode(type === undefined ? `UPSTREAM_HTTP_${status}` : `UPSTREAM_${type}`),
    status,
    message: message === undefined || message === '' ? describeBody(status, body) : message,
    retryable: options.shouldRetry ?? statusRetry,
    cause: body,
  });
}

/** An in-band `event: error` of a stream → GatewayError, with the status its type stands for. */
export function parseMessagesStreamError(body: unknown): GatewayError {
  const parsed = messagesUpstreamErrorSchema.safeParse(body);
  const type = parsed.success ? (parsed.data.error?.type ?? undefined) : undefined;
  return parseMessagesError(messagesErrorTypeStatus(type), body);
}
