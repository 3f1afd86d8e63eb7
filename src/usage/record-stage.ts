import type {
  Caller,
  CanonicalRequest,
  CutStream,
  ProtocolName,
  UpstreamAttempt,
  UpstreamResponseInfo,
  Usage,
} from '../canonical/index.js';

/** One finished request, as the "record" stage receives it. */
export interface RequestRecord {
  readonly requestId: string;
  /** Undefined when the request failed before it was authenticated. */
  readonly caller: Caller | undefined;
  /** The caller's protocol. */
  readonly protocol: ProtocolName;
  /** The model id the caller named (after aliases: the configured id); undefined when it was never resolved. */
  readonly model: string | undefined;
  /** The provider and upstream model of the attempt that answered (or failed last). */
  readonly provider: string | undefined;
  readonly upstreamModel: string | undefined;
  readonly stream: boolean;
  /** The HTTP status the caller got (200 for a stream that began, even if it failed in-band); 499 when the client left first. */
  readonly status: number;
  /** The error's code, for a failed request or a stream that ended with an in-band error. */
  readonly errorCode: string | undefined;
  /** What the answer reported; undefined when no answer came. Counts stay undefined when unknown: never billed as 0. */
  readonly usage: Usage | undefined;
  /**
   * How the upstream answered (status, its request id, rate-limit headers): the last answer the
   * provider reported; undefined when none was called or the provider reports nothing.
   */
  readonly upstream: UpstreamResponseInfo | undefined;
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** Upstream attempts made: 0 when the request ended before a provider was called (refused, invalid). */
  readonly attempts: number;
  /** Milliseconds from arrival to the first output sent: streams only. */
  readonly firstOutputMs: number | undefined;
  /** The caller's `User-Agent`. */
  readonly userAgent: string | undefined;
  /**
   * Set for a stream that began and did not finish (the client left, or it failed in-band), whose
   * `usage` the provider never reported: what the gateway knows to bill it by.
   */
  readonly cut: CutStream | undefined;
  /**
   * The deployment that served the answer, e.g. `openai-east/gpt-4.1-mini`: the name the "call" stage
   * gives it (`Answer.deployment`, `OpenedStream.deployment`), else `<provider>/<upstream model>`;
   * undefined when no upstream answered.
   */
  readonly deployment?: string;
  /**
   * Every upstream attempt in order, when the "call" stage reported them: the last is the one this
   * record describes (its model is a fallback's id when a fallback answered); the others failed.
   */
  readonly attemptLog?: readonly UpstreamAttempt[];
  /** What the adapt policy dropped from the request, e.g. `['reasoning', 'tools.web_search']`. */
  readonly adaptations?: readonly string[];
  /** The request as it was sent on (after the request policy): traces read its settings, a prompt log its messages. */
  readonly request?: CanonicalRequest;
  /**
   * Milliseconds the gateway itself spent before the answer's first byte, outside the upstream call
   * (the `x-switchyard-overhead-ms` header); undefined when no answer was written.
   */
  readonly overheadMs?: number;
  /** The stage that answered instead of a provider (a cache hit), by name: no provider was called. */
  readonly answeredBy?: string;
}

/**
 * What the "record" stage tells (src/pipeline/stages/record.ts): learns of every finished request once, after its answer was sent. It must
 * not throw or make the caller wait; the usage ledger and the request log fill it.
 */
export interface Recorder {
  record(entry: RequestRecord): void;
  /** Whether entries should carry `upstream`; providers are asked to report only then. */
  readonly wantsUpstream?: boolean;
}

/** The default "record" stage: keeps nothing. */
export const recordNothing: Recorder = { record() {} };

/**
 * One "record" stage made of several, each told of every entry in turn (the ledger, the request
 * log, metrics, traces); one that throws does not keep the others from learning of it.
 */
export function recordEach(stages: readonly Recorder[], onError: (error: unknown) => void = () => undefined): Recorder {
  const active = stages.filter((stage) => stage !== recordNothing);
  if (active.length === 0) return recordNothing;
  if (active.length === 1) return active[0]!;
  return {
    record(entry) {
      for (const stage of active) {
        try {
          stage.record(entry);
        } catch (error) {
          onError(error);
        }
      }
    },
    wantsUpstream: active.some((stage) => stage.wantsUpstream === true),
  };
}
