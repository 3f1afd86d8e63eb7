/**
 * How one upstream attempt ended: `ok`, or the kind of failure (a bounded set, so it can be a
 * metric label): `rate_limited` (429), `overloaded` (503, 529), `server_error` (other 5xx),
 * `client_error` (4xx), `timeout`, `connect_error`, `stream_error` (a failure inside a 200 stream).
 */
export type UpstreamOutcome =
  | 'ok'
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'client_error'
  | 'timeout'
  | 'connect_error'
  | 'stream_error';

/** An upstream attempt as the metrics and traces see it: a bounded outcome label, not the whole record (`UpstreamAttempt`). */
export interface UpstreamAttemptMetric {
  /** The deployment called, e.g. `openai-east/gpt-4.1-mini`. */
  readonly deployment: string;
  readonly outcome: UpstreamOutcome;
  /** True for every attempt after a request's first (a retry, another deployment, a fallback model). */
  readonly retry: boolean;
  /** The request it was made for: with `startedAt` and `durationMs`, traces show the attempt as a child span. */
  readonly requestId?: string;
  /** Epoch milliseconds when the call began. */
  readonly startedAt?: number;
  /** How long the call took to answer (a stream: to its first output event, or its failure). */
  readonly durationMs?: number;
  /** The upstream's HTTP status, when one came. */
  readonly status?: number;
}

/**
 * What the router tells the operator's view of each upstream attempt and of each deployment taken
 * out of or put back into service. The metrics implement it; the default does nothing.
 */
export interface UpstreamObserver {
  upstreamAttempt(attempt: UpstreamAttemptMetric): void;
  cooldown(deployment: string, active: boolean): void;
}

/** The default observer: keeps nothing. */
export const observeNothing: UpstreamObserver = { upstreamAttempt() {}, cooldown() {} };

/** The outcome of a failed attempt from its HTTP status (undefined when none came: a network failure). */
export function upstreamOutcomeOf(status: number | undefined, kind?: string): UpstreamOutcome {
  if (kind === 'timeout') return 'timeout';
  if (status === undefined) return 'connect_error';
  if (status === 429) return 'rate_limited';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 500) return 'server_error';
  return status >= 400 ? 'client_error' : 'ok';
}

/** One observer made of several: each is told of everything. */
export function observeEach(observers: readonly UpstreamObserver[]): UpstreamObserver {
  if (observers.length === 0) return observeNothing;
  if (observers.length === 1) return observers[0]!;
  return {
    upstreamAttempt(attempt) {
      for (const observer of observers) observer.upstreamAttempt(attempt);
    },
    cooldown(deployment, active) {
      for (const observer of observers) observer.cooldown(deployment, active);
    },
  };
}
