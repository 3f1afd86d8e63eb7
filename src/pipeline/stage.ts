import type { IncomingHttpHeaders } from 'node:http';
import type { Caller, CanonicalRequest, CanonicalResponse, CanonicalStreamEvent, ProtocolName, Usage } from '../canonical/index.js';

/** The built-in stages a stage of one's own is placed against, in the order they run. */
export type BuiltInStageName = 'authenticate' | 'fit' | 'police' | 'admit' | 'call';

/** Where a stage runs: just before or just after a built-in one. Default: `{ before: 'call' }`. */
export type StagePosition =
  | { readonly before: Exclude<BuiltInStageName, 'authenticate'> }
  | { readonly after: Exclude<BuiltInStageName, 'call'> };

/**
 * Which entry points a stage runs on: generation requests, the token counts (`count_tokens`: `POST
 * /v1/messages/count_tokens` and `POST /v1/responses/input_tokens`), and the status page's probe
 * (a tiny Chat request the gateway itself makes: no key, no request policy, no admission).
 */
export type PipelineEndpoint = 'generation' | 'count_tokens' | 'probe';

/**
 * What a stage sees of one request. The same object goes through every stage, so what one stage
 * sets the later ones read; it lives as long as the request.
 */
export interface StageContext {
  /** `req_…`: on the answer's headers, in the ledger and in every log line. */
  readonly requestId: string;
  /** The caller's protocol. */
  readonly protocol: ProtocolName;
  readonly endpoint: PipelineEndpoint;
  /** The caller's request headers, as they came. */
  readonly headers: IncomingHttpHeaders;
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number;
  /** Who is calling, as authentication found it (the key's public id and name for a stored key). */
  caller: Caller;
  /**
   * The decoded request, in the gateway's canonical form. A stage before the call may replace it
   * (a guardrail's redaction); `model` is the id the caller named.
   */
  request: CanonicalRequest;
  /** The configured id of the model serving the request (after aliases). */
  readonly model: string;
  /** Adds a header to the answer (not to a stream's in-band events); before the answer began only. */
  setAnswerHeader(name: string, value: string): void;
  /** Per-request values a stage keeps between its parts: use a key of its own (a symbol or an object). */
  readonly state: Map<unknown, unknown>;

  // What the after-parts read: how the request ended.
  /** The status the caller got: 200 for a stream that began, even if it failed in-band; 499 when the client left first. */
  readonly status: number;
  /** The error's code, for a refused or failed request or a stream that ended with an in-band error. */
  readonly errorCode: string | undefined;
  /** What the answer reported; undefined when none came. Unknown counts stay undefined. */
  readonly usage: Usage | undefined;
  /** The non-streamed answer, once it was sent (canonical form); undefined for streams and failures. */
  readonly response: CanonicalResponse | undefined;
  /** The stage that answered instead of a provider (a cache hit), by name; undefined when a provider answered. */
  readonly answeredBy: string | undefined;
  /** True once the answer is a stream whose headers went out. */
  readonly streaming: boolean;
}

/** What a stage's before-part answers with instead of calling a provider: the answer, in canonical form. */
export interface StageAnswer {
  /** Sent in the caller's protocol; a streamed request gets it as a stream (its events, in order). */
  readonly response: CanonicalResponse;
}

/**
 * One step of the request pipeline. Every built-in feature (authentication, the request policy,
 * admission, the ledger, the request log…) is a stage; a gateway runs its own with
 * `gateway({ stages })`.
 *
 * - `before` runs in order, before the provider is called. It continues by returning nothing,
 *   answers by returning a `StageAnswer` (later stages and the provider are skipped), or refuses by
 *   throwing a `GatewayError` (rendered in the caller's protocol; any other error is a 500 with the
 *   detail logged, not sent).
 * - `after` runs in reverse order once the answer ended, for every stage whose `before` was called
 *   (or, without one, that the request reached) — whatever the outcome: answered, refused, failed,
 *   the client left, the stream was cut. It must not throw (a throw is logged and the others still
 *   run) and the caller does not wait for it.
 * - `watch` sees each event of a streamed answer as it goes out, without holding it. A route with a
 *   watching stage is always translated (never passed through as the upstream wrote it), so every
 *   event is seen.
 */
export interface Stage<Context extends StageContext = StageContext> {
  /** Unique among the gateway's stages; names the stage in logs, errors and the bench. */
  readonly name: string;
  readonly position?: StagePosition;
  /** Which entry points it runs on. Default: generation only. */
  readonly endpoints?: readonly PipelineEndpoint[];
  before?(context: Context): void | StageAnswer | Promise<void | StageAnswer>;
  after?(context: Context): void | Promise<void>;
  watch?(context: Context, event: CanonicalStreamEvent): void;
}
