import { z } from 'zod';
import {
  GatewayError,
  type GatewayErrorKind,
  upstreamErrorCode,
  type ErrorCode,
  type UnregisteredErrorCode,
} from '../../canonical/index.js';

/** The OpenAI error body, read leniently: `{error:{message,type,param,code}}`. */
const ErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string().nullish(),
    type: z.string().nullish(),
    param: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
});

/** `response.error` of a failed response, and the `error` stream event: `{code, message}`. */
const FailureSchema = z.looseObject({
  code: z.union([z.string(), z.number()]).nullish(),
  message: z.string().nullish(),
  param: z.string().nullish(),
});

function kindOfStatus(status: number): GatewayErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 504) return 'timeout';
  if (status >= 500 || status === 409) return 'upstream';
  return 'invalid_request';
}

/** OpenAI's snake_case `code` as a stable gateway code (`context_length_exceeded` → `CONTEXT_LENGTH_EXCEEDED`). */
function gatewayCode(
  code: string | number | null | undefined,
  fallback: ErrorCode | UnregisteredErrorCode,
): ErrorCode | UnregisteredErrorCode {
  if (typeof code !== 'string') return fallback;
  const normalized = code.trim().replace(/[^A-Za-z0-9]+/g, '_');
  return normalized === '' ? fallback : upstreamErrorCode(normalized);
}

function textOf(body: unknown): string | undefined {
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, 500);
  return undefined;
}

/**
 * An OpenAI error answer (status + `{error:{message,type,param,code}}`) → GatewayError. The kind
 * follows the status; the upstream's message, `param` and `code` are kept. 408, 409, 429 and 5xx
 * are retryable, other 4xx are not; `insufficient_quota` is a 429 that waiting does not fix.
 */
export function parseResponsesError(status: number, body: unknown): GatewayError {
  const parsed = ErrorBodySchema.safeParse(body);
  const wire = parsed.success ? parsed.data.error : undefined;
  const kind = kindOfStatus(status);
  const quota = wire?.code === 'insufficient_quota' || wire?.type === 'insufficient_quota';
  const message = wire?.message || textOf(body) || `The provider answered with HTTP status ${status}.`;
  return new GatewayError({
    kind,
    status,
    code: gatewayCode(wire?.code ?? wire?.type, 'UPSTREAM_ERROR'),
    message,
    ...(typeof wire?.param === 'string' ? { param: wire.param } : {}),
    retryable: !quota && (status === 408 || status === 409 || status === 429 || status >= 500),
    cause: body,
  });
}

function kindOfFailureCode(code: string): GatewayErrorKind {
  if (code === 'rate_limit_exceeded' || code === 'insufficient_quota') return 'rate_limit';
  if (code === 'server_is_overloaded' || code === 'overloaded') return 'overloaded';
  if (code === 'vector_store_timeout' || code.endsWith('timeout')) return 'timeout';
  if (code.startsWith('invalid_') || code.startsWith('image_') || code === 'context_length_exceeded') return 'invalid_request';
  return 'upstream';
}

/**
 * A failure reported inside a 200 answer — `response.error` of a `failed` response or the `error`
 * stream event (`{code, message}`) — as a GatewayError. Invalid-prompt codes are not retryable.
 */
export function decodeResponsesFailure(failure: unknown): GatewayError {
  const parsed = FailureSchema.safeParse(failure);
  const wire = parsed.success ? parsed.data : {};
  const code = typeof wire.code === 'string' ? wire.code : 'server_error';
  const kind = kindOfFailureCode(code);
  return new GatewayError({
    kind,
    code: gatewayCode(code, upstreamErrorCode('server_error')),
    message: wire.message || 'The provider failed to produce an answer.',
    ...(typeof wire.param === 'string' ? { param: wire.param } : {}),
    retryable: kind !== 'invalid_request' && code !== 'insufficient_quota',
    cause: failure,
  });
}
