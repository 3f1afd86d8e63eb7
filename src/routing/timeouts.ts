/**
 * How long a model's upstream may take, per phase, and how a silent stream start is handled.
 * Set for every model (`GatewayOptions.timeouts`) and per model (`models[].timeouts`), field by field.
 */
export interface TimeoutOptions {
  /** From the call until the request is on a connection (connected, or a kept-alive one free). Default 10 000. */
  connectMs?: number;
  /** From the call until the stream's first output event (text, reasoning, a tool call). Default 180 000. */
  firstTokenMs?: number;
  /** Longest gap between two reads of a stream after its first output. Default 120 000. */
  idleMs?: number;
  /** The whole call. Default: 600 000 for an answer that is not streamed, 1 800 000 for a stream. */
  totalMs?: number;
  /**
   * How long a stream's headers are held while its first output is awaited, so an early failure still
   * gets a real status (and can be retried elsewhere); then the headers and the opening events go out. Default 10 000.
   */
  failoverWindowMs?: number;
  /** Once the headers went out, a keep-alive (Anthropic `ping`, an SSE comment) is written after this much silence. Default 15 000. */
  keepAliveMs?: number;
}

/** Every timeout in milliseconds, defaults applied. */
export interface ResolvedTimeouts {
  readonly connectMs: number;
  readonly firstTokenMs: number;
  readonly idleMs: number;
  /** For a stream. */
  readonly streamTotalMs: number;
  /** For an answer that is not streamed. */
  readonly answerTotalMs: number;
  readonly failoverWindowMs: number;
  readonly keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: ResolvedTimeouts = {
  connectMs: 10_000,
  firstTokenMs: 180_000,
  idleMs: 120_000,
  streamTotalMs: 1_800_000,
  answerTotalMs: 600_000,
  failoverWindowMs: 10_000,
  keepAliveMs: 15_000,
};

/** `over` applied field by field on `base`; a `totalMs` sets both totals. */
export function resolveTimeouts(base: ResolvedTimeouts, over: TimeoutOptions | undefined): ResolvedTimeouts {
  if (over === undefined) return base;
  return {
    connectMs: over.connectMs ?? base.connectMs,
    firstTokenMs: over.firstTokenMs ?? base.firstTokenMs,
    idleMs: over.idleMs ?? base.idleMs,
    streamTotalMs: over.totalMs ?? base.streamTotalMs,
    answerTotalMs: over.totalMs ?? base.answerTotalMs,
    failoverWindowMs: over.failoverWindowMs ?? base.failoverWindowMs,
    keepAliveMs: over.keepAliveMs ?? base.keepAliveMs,
  };
}
