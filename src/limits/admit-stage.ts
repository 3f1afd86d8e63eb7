import type { Caller, CanonicalRequest, CutStream, RateLimitState, Usage } from '../canonical/index.js';

/** What the "admit" stage sees of a request: who asks, for which model, and what. */
export interface AdmissionRequest {
  readonly requestId: string;
  readonly caller: Caller;
  /** The model id the caller named (after aliases: the configured id). */
  readonly model: string;
  /** The provider key in the gateway's options. */
  readonly provider: string;
  readonly request: CanonicalRequest;
  /** Calls `listener` if the client leaves while the request waits (a queued request gives up); returns the unsubscribe. */
  readonly onClientGone?: (listener: () => void) => () => void;
}

/** A request let in. `release` is called exactly once when it ends: success, error or the client leaving. */
export interface Admission {
  /**
   * `usage` is what the answer reported (counts unknown stay `undefined`), or undefined when it
   * failed first or was cut short; `cut` says what was sent of a stream cut short.
   */
  release(usage: Usage | undefined, cut?: CutStream): void;
  /** Where the caller's rate limits stand, for the answer's rate-limit headers; absent without limits. */
  readonly rateLimit?: RateLimitState;
}

/**
 * What the "admit" stage asks (src/pipeline/stages/admit.ts): lets a request in or refuses it by
 * throwing a `rate_limit` GatewayError (a 429 with `retryAfter`) before any provider is called.
 * Limits fill it.
 */
export interface AdmissionControl {
  admit(request: AdmissionRequest): Admission | Promise<Admission>;
}

const nothingHeld: Admission = { release() {} };

/** The default "admit" stage: no limits, nothing to release. */
export const admitEverything: AdmissionControl = { admit: () => nothingHeld };
