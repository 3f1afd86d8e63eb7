import { performance } from 'node:perf_hooks';
import type { CanonicalStreamEvent, UpstreamAttempt, UpstreamResponseInfo } from '../canonical/index.js';
import { addGatewayTimingHeaders } from '../http/gateway-timing-headers.js';
import { sendJson, sendJsonText } from '../http/send-json.js';
import type { Logger } from '../logger.js';
import type { EncodeContext, InboundCodec } from '../protocols/codec.js';
import { createProviderContext } from '../providers/transport/cancellation.js';
import { deploymentOf, type CallControl, type CallStage, type StreamCallControl } from '../routing/call-model.js';
import { readEvents } from '../routing/event-reader.js';
import { readAhead, type OpenedStream } from '../routing/read-ahead.js';
import type { Route } from '../routing/resolve-route.js';
import type { RequestContext } from './request-context.js';
import { eventsOfResponse } from './response-events.js';
import type { StageAnswer } from './stage.js';
import { StreamResponder } from './stream-responder.js';

const noAdaptations: readonly string[] = [];

/** What answering needs besides the request: how to call a provider, and what the route's stages ask of it. */
export interface AnswerOptions {
  readonly codec: InboundCodec;
  readonly call: CallStage;
  readonly logger: Logger;
  /** Whether a record stage wants the upstream's own report (status, request id, rate-limit headers). */
  readonly wantsUpstream: boolean;
}

/** A stream's watchers, as one call per event; undefined when no stage of the route watches. */
export type WatchEvents = ((event: CanonicalStreamEvent) => void) | undefined;

/**
 * "call": gets the answer from the provider (routing, retries, fallbacks, the failover window) and
 * sends it in the caller's protocol — a JSON body, or a stream with backpressure whose events the
 * route's stages watch as they go out.
 */
export async function callProvider(context: RequestContext, answering: AnswerOptions, watch: WatchEvents): Promise<void> {
  const { codec, call, logger } = answering;
  const model = context.resolved!;
  const { started, res, requestId } = context;
  const route: Route = context.mayRelay
    ? { model, request: context.request, inbound: codec.protocol, adaptations: context.adaptations ?? noAdaptations }
    : { model, request: context.request, inbound: codec.protocol, adaptations: context.adaptations ?? noAdaptations, relay: false };
  // Every field named, undefined where absent (the context copies only those set): hot-path rule 1 (docs/architecture.md#hot-path-rules).
  const providerContext = createProviderContext(started.abort, {
    requestId,
    gatewayModel: model.id,
    logger,
    clientHeaders: context.clientHeaders,
    outputTokenLimit: context.outputTokenLimit,
    reportUpstream: answering.wantsUpstream ? (info: UpstreamResponseInfo) => void (context.upstream = info) : undefined,
  });
  const encodeContext: EncodeContext = { requestId, created: Math.floor(context.startedAt / 1000), request: context.request };
  context.attempts = 1;
  const allowed = context.caller.models;
  const { attemptLog } = context;
  const onAttempt = (attempt: UpstreamAttempt) => void attemptLog.push(attempt);
  // A fallback model is one more model the key calls: its allowlist holds for it too.
  const mayCall = allowed === undefined ? undefined : (id: string) => allowed.includes(id);
  /** The deployment that answered: the last attempt's (a router's), else the route's model's. */
  const servedBy = (named: string | undefined) => attemptLog[attemptLog.length - 1]?.deployment ?? named ?? deploymentOf(route);
  context.callStart = performance.now();
  if (!context.request.stream) {
    // Hot-path rule 1 (docs/architecture.md#hot-path-rules).
    const calls: CallControl = mayCall === undefined ? { onAttempt } : { mayCall, onAttempt };
    const answer = await call.generate(route, providerContext, calls);
    context.upstreamMs = performance.now() - context.callStart;
    context.deployment = servedBy(answer.deployment);
    const { response, wire } = answer;
    const encoded = wire === undefined ? codec.encodeResponse(response, encodeContext) : undefined;
    addTimingHeaders(context);
    if (wire === undefined) sendJson(res, 200, encoded, requestId);
    else sendJsonText(res, 200, wire, requestId);
    context.usage = response.usage;
    context.response = response;
    return;
  }
  // Headers held for the failover window, then sent with keep-alives until the first output.
  const responder = streamResponder(context, codec, encodeContext, logger, watch);
  const control: StreamCallControl = {
    mayCall,
    onAttempt,
    committed: () => responder.committed(),
    reading: (reader) => responder.reading(reader),
    beforeOutput: (batch) => responder.beforeOutput(batch),
  };
  const opened = await responder.open(call.stream(route, providerContext, control), model.timeouts);
  context.upstreamMs = performance.now() - context.callStart;
  started.streaming = true;
  // Failed after the commit: the in-band error went out.
  if (opened === undefined) {
    context.errorCode = responder.outcome.errorCode;
    return;
  }
  context.deployment = servedBy(opened.deployment);
  // Too late for a stream committed during a silent start: its headers went out already.
  addTimingHeaders(context);
  await streamOut(context, responder, opened);
}

/** Sends a stage's answer (a cache hit) as the provider's would have been: no provider is called. */
export async function sendStageAnswer(
  context: RequestContext,
  answering: AnswerOptions,
  answer: StageAnswer,
  watch: WatchEvents,
): Promise<void> {
  const { codec } = answering;
  const { response } = answer;
  const encodeContext: EncodeContext = {
    requestId: context.requestId,
    created: Math.floor(context.startedAt / 1000),
    request: context.request,
  };
  context.deployment = `stage:${context.answeredBy}`;
  if (!context.request.stream) {
    const encoded = codec.encodeResponse(response, encodeContext);
    addTimingHeaders(context);
    sendJson(context.res, 200, encoded, context.requestId);
    context.usage = response.usage;
    context.response = response;
    return;
  }
  const opened = await readAhead(readEvents(replay(eventsOfResponse(response))));
  context.started.streaming = true;
  addTimingHeaders(context);
  await streamOut(context, streamResponder(context, codec, encodeContext, answering.logger, watch), opened);
}

async function* replay(events: readonly CanonicalStreamEvent[]): AsyncGenerator<CanonicalStreamEvent> {
  yield* events;
}

function streamResponder(
  context: RequestContext,
  codec: InboundCodec,
  encodeContext: EncodeContext,
  logger: Logger,
  watch: WatchEvents,
): StreamResponder {
  const { started } = context;
  return new StreamResponder(context.res, {
    codec,
    encodeContext,
    abort: started.abort,
    logger,
    interruption: () => started.interruption,
    watch,
  });
}

async function streamOut(context: RequestContext, responder: StreamResponder, opened: OpenedStream): Promise<void> {
  await responder.send(opened);
  const { outcome } = responder;
  context.usage = outcome.usage;
  context.firstOutputAt = outcome.firstOutputAt;
  context.errorCode = outcome.errorCode;
  if (outcome.usage === undefined) {
    const { startUsage, outputChars, reasoningChars } = outcome;
    context.cut = { clientLeft: outcome.errorCode === undefined, startUsage, outputChars, reasoningChars, request: context.request };
  }
}

/** The gateway's own time so far, outside the upstream call: what the answer's headers report. */
export function addTimingHeaders(context: RequestContext): void {
  context.overheadMs = addGatewayTimingHeaders(context.res, context.overheadSoFar(), context.deployment);
}
