import type { GatewayError } from '../canonical/index.js';
import { isContextOverflow } from './context-overflow.js';

/** How failed upstream calls are retried before the first byte reaches the client. */
export interface RetryOptions {
  /** Retries after the first attempt on a model (on its other deployments first, else the same one after a backoff). Default 2; 0 turns retries off. */
  attempts?: number;
  /** The first backoff, in ms; each next one doubles, with jitter. Default 200. */
  baseDelayMs?: number;
  /** The longest backoff, in ms. Default 2000. */
  maxDelayMs?: number;
  /**
   * The longest upstream `retry-after` waited for, in ms. A longer one sends the request to another
   * deployment (or the next fallback model) at once, and cools the deployment down for that long. Default 5000.
   */
  maxRetryAfterMs?: number;
}

export type ResolvedRetries = Required<RetryOptions>;

export const DEFAULT_RETRIES: ResolvedRetries = { attempts: 2, baseDelayMs: 200, maxDelayMs: 2_000, maxRetryAfterMs: 5_000 };

/** The gateway's retries, then the model's, over the defaults. */
export function resolveRetries(...layers: readonly (RetryOptions | undefined)[]): ResolvedRetries {
  const resolved = { ...DEFAULT_RETRIES };
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const [name, value] of Object.entries(layer) as [keyof RetryOptions, number | undefined][])
      if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}

/** The backoff before retry number `retry` (1-based): exponential, half of it random ("equal jitter"). */
export function backoffMs(retries: ResolvedRetries, retry: number, random = Math.random): number {
  const ceiling = Math.min(retries.maxDelayMs, retries.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Statuses worth another try: timeouts, rate limits and the server errors a retry can cure. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504, 529]);

/** The upstream refused the gateway's credentials: another deployment (other credentials) may work, a retry will not. */
const CREDENTIAL_CODES = new Set(['UPSTREAM_AUTHENTICATION_FAILED', 'UPSTREAM_PERMISSION_DENIED']);

/**
 * What a failed attempt allows: `retry` (this model again, elsewhere or after a backoff), `elsewhere`
 * (another deployment only, never this one again), `context` (the model's larger-context fallback),
 * or `final` (the caller's own error: nothing else would answer differently).
 */
export type FailureAction = 'retry' | 'elsewhere' | 'context' | 'final';

export function failureActionOf(error: GatewayError): FailureAction {
  if (error.status === 499) return 'final'; // cancelled: the client left or the gateway is shutting down
  if (CREDENTIAL_CODES.has(error.code)) return 'elsewhere';
  if (isContextOverflow(error)) return 'context';
  if (error.kind === 'quota') return 'elsewhere';
  // The gateway's own limit on a whole call (the total timeout): trying again would wait as long again.
  if (error.kind === 'timeout' && !error.retryable) return 'final';
  if (error.retryable || RETRYABLE_STATUSES.has(error.status)) return 'retry';
  return 'final';
}
