import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type {
  Caller,
  CanonicalRequest,
  CanonicalResponse,
  CutStream,
  ProtocolName,
  UpstreamAttempt,
  UpstreamResponseInfo,
  Usage,
} from '../canonical/index.js';
import { addAnswerHeader } from '../http/answer-headers.js';
import type { HttpResponse } from '../http/types.js';
import type { Admission } from '../limits/admit-stage.js';
import type { ResolvedModel } from '../routing/resolve-model.js';
import type { RequestRecord } from '../usage/record-stage.js';
import type { StartedRequest } from '../pipeline/start-request.js';
import type { PipelineStage } from './run-stages.js';
import type { PipelineEndpoint, StageContext } from './stage.js';

/** A caller before authentication: nobody yet. */
const nobody: Caller = Object.freeze({});

/**
 * One request on its way through the stages: what `StageContext` shows, and what the built-in
 * stages keep between their parts. Fields are plain and preset, and a feature that is off leaves
 * its fields untouched: hot-path rules 1 and 4 (docs/architecture.md#hot-path-rules).
 */
export class RequestContext implements StageContext {
  readonly requestId: string;
  readonly protocol: ProtocolName;
  readonly endpoint: PipelineEndpoint;
  readonly headers: IncomingHttpHeaders;
  readonly startedAt: number;
  readonly started: StartedRequest;
  readonly res: HttpResponse;
  /** The stages this request runs: the endpoint's until the model is known, then the route's (which begins with them). */
  stages: readonly PipelineStage[];
  /** How many of `stages` the request reached: their after-parts run. */
  reached = 0;
  /** Set by authentication; `authenticated` says whether it ran to the end. */
  caller: Caller = nobody;
  authenticated = false;
  /** Set once the body was decoded (after "authenticate"); stages after it may rely on it. */
  request!: CanonicalRequest;
  /** Set once the model was resolved. */
  resolved: ResolvedModel | undefined;
  /** What the adapt and request policies left out, in the order they did. */
  adaptations: readonly string[] | undefined;
  /** Caller headers the provider gets (`anthropic-beta`), after the request policy. */
  clientHeaders: Record<string, string> | undefined;
  /** Output allowance the context window leaves, for providers that must send one. */
  outputTokenLimit: number | undefined;
  /** False when a stage watches the stream: the upstream's frames are then never passed through. */
  mayRelay = true;
  admission: Admission | undefined;

  status = 200;
  errorCode: string | undefined;
  usage: Usage | undefined;
  response: CanonicalResponse | undefined;
  answeredBy: string | undefined;
  upstream: UpstreamResponseInfo | undefined;
  readonly attemptLog: UpstreamAttempt[] = [];
  /** 1 once a provider was called (attempts beyond it come from `attemptLog`). */
  attempts = 0;
  firstOutputAt: number | undefined;
  cut: CutStream | undefined;
  deployment: string | undefined;
  overheadMs: number | undefined;
  /** When the upstream call began, and how long it took to answer (a stream: to its first output), from `performance.now()`. */
  callStart: number | undefined;
  upstreamMs: number | undefined;
  #state: Map<unknown, unknown> | undefined;
  #record: RequestRecord | undefined;

  constructor(
    started: StartedRequest,
    res: HttpResponse,
    headers: IncomingHttpHeaders,
    protocol: ProtocolName,
    endpoint: PipelineEndpoint,
    stages: readonly PipelineStage[],
  ) {
    this.stages = stages;
    this.started = started;
    this.res = res;
    this.requestId = started.requestId;
    this.startedAt = started.startedAt;
    this.headers = headers;
    this.protocol = protocol;
    this.endpoint = endpoint;
  }

  get model(): string {
    return this.resolved?.id ?? this.request?.model;
  }

  get streaming(): boolean {
    return this.started.streaming;
  }

  get state(): Map<unknown, unknown> {
    return (this.#state ??= new Map());
  }

  setAnswerHeader(name: string, value: string): void {
    addAnswerHeader(this.res, name.toLowerCase(), value);
  }

  /** The gateway's own time so far, outside the upstream call, in milliseconds. */
  overheadSoFar(): number {
    if (this.callStart !== undefined && this.upstreamMs === undefined) this.upstreamMs = performance.now() - this.callStart;
    return performance.now() - this.started.startedAtPrecise - (this.upstreamMs ?? 0);
  }

  /**
   * The finished request as the ledger, the request log, metrics and traces receive it: built once,
   * the first time one of them asks. Every field named: hot-path rule 1 (docs/architecture.md#hot-path-rules).
   */
  toRecord(): RequestRecord {
    const made = this.#record;
    if (made !== undefined) return made;
    const { resolved, attemptLog, adaptations } = this;
    const request = resolved === undefined ? undefined : this.request;
    // The attempt that answered (or failed last) is the one the record describes.
    const last = attemptLog[attemptLog.length - 1];
    const record: RequestRecord = {
      requestId: this.requestId,
      caller: this.authenticated ? this.caller : undefined,
      protocol: this.protocol,
      model: resolved?.id,
      // A stage's answer (a cache hit) came from no provider.
      provider: this.answeredBy !== undefined ? undefined : (last?.provider ?? resolved?.providerId),
      upstreamModel: this.answeredBy !== undefined ? undefined : (last?.upstreamModel ?? resolved?.upstreamModel),
      attemptLog: last === undefined ? undefined : attemptLog,
      stream: request?.stream === true,
      status: this.status,
      errorCode: this.errorCode,
      usage: this.usage,
      upstream: this.upstream,
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt,
      attempts: attemptLog.length > 0 ? attemptLog.length : this.attempts,
      firstOutputMs: this.firstOutputAt === undefined ? undefined : this.firstOutputAt - this.startedAt,
      userAgent: this.headers['user-agent'],
      cut: this.cut,
      deployment: this.deployment,
      request,
      overheadMs: this.overheadMs,
      adaptations: adaptations !== undefined && adaptations.length > 0 ? adaptations : undefined,
      answeredBy: this.answeredBy,
    };
    this.#record = record;
    return record;
  }
}
