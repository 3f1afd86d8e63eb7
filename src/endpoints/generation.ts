import { GatewayError, type Caller, type UpstreamAttempt, type UpstreamResponseInfo, type Usage } from '../canonical/index.js';
import type { CallControl, StreamCallControl } from '../routing/call-model.js';
import type { CutStream } from '../usage/record-stage.js';
import type { Admission } from '../limits/admit-stage.js';
import { addAnswerHeaders } from '../http/answer-headers.js';
import { noteModel, noteRecorded } from '../http/answer-note.js';
import { addGatewayTimingHeaders } from '../http/gateway-timing-headers.js';
import { performance } from 'node:perf_hooks';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { sendJson, sendJsonText } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import type { EncodeContext, InboundCodec } from '../protocols/codec.js';
import { applyRequestPolicy } from '../policy/apply-request-policy.js';
import { policeClientHeaders } from '../policy/police-client-headers.js';
import { policyFor } from '../policy/request-policy-table.js';
import { strippedHints } from '../policy/stripped-hints.js';
import { createProviderContext } from '../providers/transport/request-abort.js';
import { resolveRoute, type Route } from '../routing/resolve-route.js';
import { deploymentOf } from '../routing/call-model.js';
import { pickClientHeaders, type EndpointRules } from './endpoint-rules.js';
import { setRateLimitHeaders } from './rate-limit-headers.js';
import { fitToWindow } from './fit-to-window.js';
import { HeldStream } from './held-stream.js';
import { sendStream } from './send-stream.js';
import type { EndpointSetup } from './stages.js';
import type { OpenRequests } from './open-requests.js';
import { StartedRequest, type Ending } from './start-request.js';

/**
 * `POST /v1/chat/completions`, `/v1/responses` and `/v1/messages`: one generation request in the
 * caller's protocol, as a sequence of stages —
 * authenticate → decode → resolve the model → apply the request policy → admit → call the provider →
 * encode and send → record. `open`, when given, tracks the requests being answered so that a
 * shutdown can interrupt them.
 */
export function createGenerationEndpoint(codec: InboundCodec, setup: EndpointSetup, rules: EndpointRules, open?: OpenRequests): EndpointHandler {
  const readBody = createJsonBodyReader(setup.bodyLimit);
  const { authenticate, admit, call, record } = setup.stages;
  return async (req, res) => {
    const started = new StartedRequest(res);
    noteRecorded(res);
    const { requestId } = started;
    let caller: Caller | undefined;
    let route: Route | undefined;
    let admission: Admission | undefined;
    let usage: Usage | undefined;
    let upstream: UpstreamResponseInfo | undefined;
    let firstOutputAt: number | undefined;
    let cut: CutStream | undefined;
    let attempts = 0;
    /** When the upstream call began and how long it took to answer (a stream: to its first output event), from `performance.now()`. */
    let callStart: number | undefined;
    let upstreamMs: number | undefined;
    let deployment: string | undefined;
    let overheadMs: number | undefined;
    /** The gateway's own time so far, outside the upstream call: what the answer's headers report. */
    const addTimingHeaders = () => {
      if (callStart !== undefined && upstreamMs === undefined) upstreamMs = performance.now() - callStart;
      overheadMs = addGatewayTimingHeaders(res, performance.now() - started.startedAtPrecise - (upstreamMs ?? 0), deployment);
    };
    let adaptations: readonly string[] | undefined;
    /** Each upstream attempt, as the "call" stage reports it (a row each in the ledger). */
    const attemptLog: UpstreamAttempt[] = [];
    let ending: Ending = { status: 200, errorCode: undefined };
    try {
      open?.add(started);
      // Stages that answer at once are not awaited: an await costs a turn of the microtask queue.
      const authenticated = authenticate.authenticate(req.headers, rules.acceptXApiKey);
      caller = authenticated instanceof Promise ? await authenticated : authenticated;
      if (rules.requireAnthropicVersion) checkAnthropicVersion(req.headers);
      const request = codec.decodeRequest(await readBody(req));
      route = resolveRoute(setup.models, request, codec, setup.unavailableModels);
      noteModel(res, route.model.id);
      // The request policy: what this key may send on to this model, before anything is admitted or called.
      const policy = policyFor(setup.requestPolicy, caller, route.model.id);
      const policed = applyRequestPolicy(policy, route.request, codec.protocol);
      adaptations = withStripped(route.adaptations, strippedHints(route.request, policed, codec.protocol));
      if (policed !== route.request) route = { ...route, request: policed };
      if (adaptations.length > 0) announceAdaptations(res, setup, requestId, route.model.id, adaptations);
      const clientHeaders = policeClientHeaders(policy, pickClientHeaders(req, rules));
      const { model } = route;
      const fitted = fitToWindow(route.request, model, codec.protocol);
      const outputTokenLimit = fitted instanceof Promise ? await fitted : fitted;
      const admitted = admit.admit({
        requestId,
        caller,
        model: model.id,
        provider: model.providerId,
        request: route.request,
        onClientGone: (listener) => started.abort.listen(listener),
      });
      admission = admitted instanceof Promise ? await admitted : admitted;
      if (admission.rateLimit !== undefined) setRateLimitHeaders(res, codec.protocol, admission.rateLimit);

      const context = createProviderContext(started.abort, {
        requestId,
        gatewayModel: model.id,
        logger: setup.logger,
        ...(clientHeaders ? { clientHeaders } : {}),
        ...(outputTokenLimit === undefined ? {} : { outputTokenLimit }),
        ...(record.wantsUpstream ? { reportUpstream: (info: UpstreamResponseInfo) => void (upstream = info) } : {}),
      });
      const encodeContext: EncodeContext = { requestId, created: Math.floor(started.startedAt / 1000), request: route.request };
      attempts = 1;
      const allowed = caller.models;
      const onAttempt = (attempt: UpstreamAttempt) => void attemptLog.push(attempt);
      // A fallback model is one more model the key calls: its allowlist holds for it too.
      const mayCall = allowed === undefined ? undefined : (id: string) => allowed.includes(id);
      // Object literals without spreads: on Node 20 a spread copy that gains fields costs a microsecond.
      const calls: CallControl = mayCall === undefined ? { onAttempt } : { mayCall, onAttempt };
      /** The deployment that answered: the last attempt's (a router's), else the route's model's. */
      const servedBy = (named: string | undefined) => attemptLog[attemptLog.length - 1]?.deployment ?? named ?? deploymentOf(route!);
      callStart = performance.now();
      if (request.stream) {
        // Headers held for the failover window, then sent with keep-alives until the first output.
        const held = new HeldStream(res, codec, encodeContext, model.timeouts);
        const control: StreamCallControl = {
          mayCall,
          onAttempt,
          committed: () => held.committed(),
          reading: (reader) => held.reading(reader),
          beforeOutput: (batch) => held.beforeOutput(batch),
        };
        const interruption = () => started.interruption;
        const opened = await held.open(call.stream(route, context, control), setup.logger, interruption);
        upstreamMs = performance.now() - callStart;
        started.streaming = true;
        // Failed after the commit: the in-band error went out.
        if (opened === undefined) ending = { status: 200, errorCode: held.errorCode };
        else {
          deployment = servedBy(opened.deployment);
          // Too late for a stream committed during a silent start: its headers went out already.
          addTimingHeaders();
          const outcome = await sendStream(res, codec, opened, encodeContext, started.abort, setup.logger, interruption, held);
          usage = outcome.usage;
          firstOutputAt = outcome.firstOutputAt;
          ending = { status: 200, errorCode: outcome.errorCode };
          if (usage === undefined) {
            const { startUsage, outputChars } = outcome;
            cut = { clientLeft: outcome.errorCode === undefined, startUsage, outputChars, request: route.request };
          }
        }
      } else {
        const answer = await call.generate(route, context, calls);
        upstreamMs = performance.now() - callStart;
        deployment = servedBy(answer.deployment);
        const { response, wire } = answer;
        const encoded = wire === undefined ? codec.encodeResponse(response, encodeContext) : undefined;
        addTimingHeaders();
        if (wire === undefined) sendJson(res, 200, encoded, requestId);
        else sendJsonText(res, 200, wire, requestId);
        usage = response.usage;
      }
    } catch (error) {
      // A 429 from a limit carries the limits' standing, in headers as on any other answer.
      const rateLimit = GatewayError.isInstance(error) ? error.rateLimit : undefined;
      if (rateLimit !== undefined) setRateLimitHeaders(res, codec.protocol, rateLimit);
      if (!res.headersSent) addTimingHeaders();
      ending = started.fail(res, codec, error, setup.logger);
    } finally {
      open?.delete(started);
    }
    admission?.release(usage, cut);
    // The attempt that answered (or failed last) is the one the record describes.
    const last = attemptLog[attemptLog.length - 1];
    // Every field named, none spread in: the record is built for every request, and on Node 20 an
    // object literal with spreads in it costs about a microsecond more.
    record.record({
      requestId,
      caller,
      protocol: codec.protocol,
      model: route?.model.id,
      provider: last?.provider ?? route?.model.providerId,
      upstreamModel: last?.upstreamModel ?? route?.model.upstreamModel,
      attemptLog: last === undefined ? undefined : attemptLog,
      stream: route?.request.stream === true,
      status: ending.status,
      errorCode: ending.errorCode,
      usage,
      upstream,
      startedAt: started.startedAt,
      durationMs: Date.now() - started.startedAt,
      attempts: attemptLog.length > 0 ? attemptLog.length : attempts,
      firstOutputMs: firstOutputAt === undefined ? undefined : firstOutputAt - started.startedAt,
      userAgent: req.headers['user-agent'],
      cut,
      deployment,
      request: route?.request,
      overheadMs,
      adaptations: adaptations !== undefined && adaptations.length > 0 ? adaptations : undefined,
    });
  };
}

/** What the adapt policy left out, then what the request policy stripped, each named once. */
function withStripped(adapted: readonly string[], stripped: readonly string[]): readonly string[] {
  if (stripped.length === 0) return adapted;
  return [...new Set([...adapted, ...stripped])];
}

/**
 * Tells the caller, in `x-switchyard-adapted` (added to the answer's one `writeHead`), and the
 * operator, in one info line, what was left out of the request: `reasoning, tools.web_search`.
 */
function announceAdaptations(res: Parameters<EndpointHandler>[1], setup: EndpointSetup, requestId: string, model: string, adaptations: readonly string[]): void {
  addAnswerHeaders(res, { 'x-switchyard-adapted': adaptations.join(', ') });
  // Debug: the request log line (observability) carries the adaptations already; this line is for a host without one.
  setup.logger.debug({ requestId, model, adaptations }, 'switchyard: request adapted to the model');
}
