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
  /** Whether it reads the request's own async context (traces parent their span on the active one): told at once, not in a batch. */
  readonly inRequestContext?: boolean;
}

/** The "record" stage as the gateway runs it: entries handed over in one turn of the event loop, recorded together after it. */
export interface BatchedRecorder extends Recorder {
  /** Records what was handed over and not yet recorded, now (a shutdown, before the ledger closes). */
  flush(): void;
}

/** When the request was answered (epoch milliseconds): its arrival plus its duration. */
export function answeredAt(record: RequestRecord): number {
  return record.startedAt + record.durationMs;
}

/** The default "record" stage: keeps nothing. */
export const recordNothing: BatchedRecorder = { record() {}, flush() {} };

/**
 * One "record" stage made of several (the ledger, the request log, metrics, traces); one that
 * throws does not keep the others from learning of an entry. Entries handed over while the event
 * loop reads its sockets are recorded together once it has (`setImmediate`), each stage taking the
 * whole batch in turn: a request's path then runs none of their code, and each stage's code and
 * data are brought into the cache once a batch rather than once a request, where they had evicted
 * the request path's own (docs/performance.md, "A core's own cache").
 */
export function recordEach(stages: readonly Recorder[], onError: (error: unknown) => void = () => undefined): BatchedRecorder {
  const active = stages.filter((stage) => stage !== recordNothing);
  if (active.length === 0) return recordNothing;
  return new RecordBatch(
    active.filter((stage) => stage.inRequestContext !== true),
    active.filter((stage) => stage.inRequestContext === true),
    onError,
  );
}

/**
 * The longest a batch gathers, by its entries' answer times (milliseconds), before it is recorded
 * at once: what the ledger's commit window (50 ms by default, counted from each answer) loses
 * to a batch at most.
 */
const MAX_BATCH_MS = 5;

class RecordBatch implements BatchedRecorder {
  readonly wantsUpstream: boolean;
  readonly #stages: readonly Recorder[];
  /** Told of each entry at once, in the request's own async context. */
  readonly #atOnce: readonly Recorder[] | undefined;
  readonly #onError: (error: unknown) => void;
  #pending: RequestRecord[] = [];
  /** The array the last batch was recorded from, emptied: the next batch fills it (no array made per batch). */
  #spare: RequestRecord[] = [];
  /** When the batch's first entry was answered (epoch milliseconds). */
  #firstAnsweredAt = 0;
  readonly #flush = () => this.flush();

  constructor(stages: readonly Recorder[], atOnce: readonly Recorder[], onError: (error: unknown) => void) {
    this.#stages = stages;
    this.#atOnce = atOnce.length === 0 ? undefined : atOnce;
    this.#onError = onError;
    this.wantsUpstream = [...stages, ...atOnce].some((stage) => stage.wantsUpstream === true);
  }

  record(entry: RequestRecord): void {
    if (this.#atOnce !== undefined) for (const stage of this.#atOnce) this.#tell(stage, entry);
    if (this.#stages.length === 0) return;
    const answered = answeredAt(entry);
    if (this.#pending.push(entry) === 1) {
      this.#firstAnsweredAt = answered;
      setImmediate(this.#flush);
    } else if (answered - this.#firstAnsweredAt >= MAX_BATCH_MS) {
      // A saturated process can take tens of milliseconds to finish a turn: what it finished early
      // in the turn is recorded without waiting for the end of it.
      this.flush();
    }
  }

  flush(): void {
    const entries = this.#pending;
    if (entries.length === 0) return;
    this.#pending = this.#spare;
    for (const stage of this.#stages) {
      for (const entry of entries) this.#tell(stage, entry);
    }
    entries.length = 0;
    this.#spare = entries;
  }

  #tell(stage: Recorder, entry: RequestRecord): void {
    try {
      stage.record(entry);
    } catch (error) {
      this.#onError(error);
    }
  }
}
