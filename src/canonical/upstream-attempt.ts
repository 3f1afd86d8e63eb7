/**
 * One call to an upstream on behalf of a request: where it went and how it ended. The request's
 * log, its ledger rows and `gateway.routing.onAttempt` listeners all get this one record.
 */
export interface UpstreamAttempt {
  /** The request it was made for. */
  readonly requestId: string;
  /** 1-based, across every model the request tried. */
  readonly attempt: number;
  /** The configured id of the model called (a fallback's id when one was tried). */
  readonly model: string;
  /** The deployment's name, e.g. `openai-east/gpt-4.1-mini`. */
  readonly deployment: string;
  readonly provider: string;
  readonly upstreamModel: string;
  /** Epoch milliseconds when the attempt began. */
  readonly startedAt: number;
  /** Until it answered (a stream: its first output) or failed. */
  readonly durationMs: number;
  /** How it failed; undefined for the attempt that answered. */
  readonly error?: { readonly status: number; readonly code: string };
}
