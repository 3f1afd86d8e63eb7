import { GatewayError } from './errors.js';

/** What a store that cannot be reached was needed for, and the code its 503 carries. */
const checks = {
  KEY_STORE_UNAVAILABLE: 'the API key',
  BUDGET_UNAVAILABLE: "this key's budget",
  LIMITS_UNAVAILABLE: "this key's rate limits",
} as const;

/**
 * The one 503 for a check whose store (the database or Redis) cannot be reached: nothing is
 * spent or counted, and the caller retries after a second.
 */
export function storeUnavailable(code: keyof typeof checks, cause: unknown): GatewayError {
  return new GatewayError({
    code,
    message: `The gateway cannot check ${checks[code]} right now: its store is unreachable. Retry shortly.`,
    retryAfter: 1,
    cause,
  });
}
