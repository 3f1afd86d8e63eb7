/** Where one rate limit stands after a request was counted against it (or refused by it). */
export interface RateLimitReading {
  /** Requests (or tokens) the limit allows per minute. */
  readonly limit: number;
  /** How many more it would let in now. */
  readonly remaining: number;
  /** Milliseconds until it is full again (nothing used in the last minute). */
  readonly resetMs: number;
}

/**
 * The request and token limits a caller is held to, as the providers report them in headers: for
 * each, the reading of the tightest limit that applied (key or model). Absent when none applied.
 */
export interface RateLimitState {
  readonly requests?: RateLimitReading;
  readonly tokens?: RateLimitReading;
}
