import type { GatewayErrorKind } from '../../canonical/index.js';
import { GatewayError, upstreamErrorCode } from '../../canonical/index.js';
import { GeminiErrorObjectSchema } from './upstream-schema.js';

type Detail = Record<string, unknown>;

/** `{error:{…}}`, or the same wrapped in an array (non-SSE stream calls, some proxies). */
function errorObjectOf(body: unknown) {
  const envelope: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof envelope !== 'object' || envelope === null) return undefined;
  const parsed = GeminiErrorObjectSchema.safeParse((envelope as { error?: unknown }).error);
  return parsed.success ? parsed.data : undefined;
}

function detailsOfType(details: readonly Detail[], type: string): Detail[] {
  return details.filter((detail) => typeof detail['@type'] === 'string' && detail['@type'].endsWith(`google.rpc.${type}`));
}

/** `RetryInfo.retryDelay` ("38s", "38.2s") in seconds. */
function retryDelayOf(details: readonly Detail[]): number | undefined {
  for (const detail of detailsOfType(details, 'RetryInfo')) {
    const match = typeof detail.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay) : null;
    if (match?.[1] !== undefined) return Number.parseFloat(match[1]);
  }
  return undefined;
}

/** A per-day quota is exhausted until the daily reset: retrying is pointless. */
function isDailyQuota(details: readonly Detail[]): boolean {
  return detailsOfType(details, 'QuotaFailure').some((detail) => {
    const violations = Array.isArray(detail.violations) ? (detail.violations as unknown[]) : [];
    return violations.some((violation) => {
      const quotaId = typeof violation === 'object' && violation !== null ? (violation as Detail).quotaId : undefined;
      return typeof quotaId === 'string' && /per-?day/i.test(quotaId);
    });
  });
}

function hasReason(details: readonly Detail[], reason: string): boolean {
  return detailsOfType(details, 'ErrorInfo').some((detail) => detail.reason === reason);
}

function kindOf(status: number): GatewayErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status === 503) return 'overloaded';
  return status >= 500 ? 'upstream' : 'invalid_request';
}

/**
 * A Gemini error answer → GatewayError. Kind from the HTTP status (an invalid API key, which Google
 * answers with 400 `API_KEY_INVALID`, becomes 401); Google's message is kept; 429 and 5xx are
 * retryable (not a per-day quota), 4xx not; `RetryInfo.retryDelay` becomes `retryAfter`.
 */
export function parseGeminiError(status: number, body: unknown): GatewayError {
  const error = errorObjectOf(body);
  const details = (error?.details ?? []) as Detail[];
  const googleStatus = error?.status ?? undefined;
  const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
  const message = error?.message ?? (text === '' ? `Google Gemini answered HTTP ${status}.` : text);
  const keyInvalid = status === 400 && hasReason(details, 'API_KEY_INVALID');
  const effectiveStatus = keyInvalid ? 401 : status;
  const kind = kindOf(effectiveStatus);
  const retryable = (effectiveStatus === 429 && !isDailyQuota(details)) || effectiveStatus === 408 || effectiveStatus >= 500;
  const retryAfter = retryDelayOf(details);
  return new GatewayError({
    kind,
    code: upstreamErrorCode(keyInvalid ? 'GEMINI_API_KEY_INVALID' : `GEMINI_${googleStatus ?? `HTTP_${status}`}`),
    status: effectiveStatus,
    message,
    retryable,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    cause: body,
  });
}
