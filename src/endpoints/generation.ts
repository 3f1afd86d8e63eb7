import { GatewayError, type Caller, type UpstreamAttempt, type UpstreamResponseInfo, type Usage } from '../canonical/index.js';
import type { StreamCallControl } from '../routing/call-model.js';
import type { CutStream } from '../usage/record-stage.js';
import type { Admission } from '../limits/admit-stage.js';
import { noteModel } from '../http/answer-note.js';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { sendJson, sendJsonText } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import type { EncodeContext, InboundCodec } from '../protocols/codec.js';
import { applyRequestPolicy } from '../policy/apply-request-policy.js';
import { policeClientHeaders } from '../policy/police-client-headers.js';
import { policyFor } from '../policy/request-policy-table.js';
import { createProviderContext } from '../providers/transport/request-abort.js';
import { resolveRoute, type Route } from '../routing/resolve-route.js';
import { pickClientHeaders, type EndpointRules } from './endpoint-rules.js';
import { setRateLimitHeaders } from './rate-limit-headers.js';
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
    const { requestId } = started;
    let caller: Caller | undefined;
    let route: Route | undefined;
    let admission: Admission | undefined;
    let usage: Usage | undefined;
    let upstream: UpstreamResponseInfo | undefined;
    let firstOutputAt: number | undefined;
    let cut: CutStream | undefined;
    let attempts = 0;
    /** Each upstream attempt, as the "call" stage reports it (a row each in the ledger). */
    const attemptLog: UpstreamAttempt[] = [];
    let ending: Ending = { status: 200, errorCode: undefined };
    try {
      open?.add(started);
      caller = await authenticate.authenticate(req.headers, rules.acceptXApiKey);
      if (rules.requireAnthropicVersion) checkAnthropicVersion(req.headers);
      const request = codec.decodeRequest(await readBody(req));
      route = resolveRoute(setup.models, request, codec, setup.unavailableModels);
      noteModel(res, route.model.id);
      // The request policy: what this key may send on to this model, before anything is admitted or called.
      const policy = policyFor(setup.requestPolicy, caller, route.model.id);
      const policed = applyRequestPolicy(policy, route.request, codec.protocol);
      if (policed !== route.request) route = { ...route, request: policed };
      const clientHeaders = policeClientHeaders(policy, pickClientHeaders(req, rules));
      const { model } = route;
      admission = await admit.admit({
        requestId,
        caller,
        model: model.id,
        provider: model.providerId,
        request: route.request,
        onClientGone: (listener) => started.abort.listen(listener),
      });
      if (admission.rateLimit !== undefined) setRateLimitHeaders(res, codec.protocol, admission.rateLimit);

      const context = createProviderContext(started.abort, {
        requestId,
        gatewayModel: model.id,
        logger: setup.logger,
        ...(clientHeaders ? { clientHeaders } : {}),
        ...(record.wantsUpstream ? { reportUpstream: (info: UpstreamResponseInfo) => void (upstream = info) } : {}),
      });
      const encodeContext: EncodeContext = { requestId, created: Math.floor(started.startedAt / 1000), request: route.request };
      attempts = 1;
      const allowed = caller.models;
      const control: StreamCallControl = {
        committed: () => false,
        // A fallback model is one more model the key calls: its allowlist holds for it too.
        ...(allowed === undefined ? {} : { mayCall: (id: string) => allowed.includes(id) }),
        onAttempt: (attempt) => void attemptLog.push(attempt),
      };
      if (request.stream) {
        const opened = await call.stream(route, context, control);
        const outcome = await sendStream(res, codec, opened, encodeContext, started.abort, setup.logger, () => started.interruption);
        usage = outcome.usage;
        firstOutputAt = outcome.firstOutputAt;
        ending = { status: 200, errorCode: outcome.errorCode };
        if (usage === undefined) {
          const { startUsage, outputChars } = outcome;
          cut = { clientLeft: outcome.errorCode === undefined, startUsage, outputChars, request: route.request };
        }
      } else {
        const { response, wire } = await call.generate(route, context, control);
        if (wire === undefined) sendJson(res, 200, codec.encodeResponse(response, encodeContext), requestId);
        else sendJsonText(res, 200, wire, requestId);
        usage = response.usage;
      }
    } catch (error) {
      // A 429 from a limit carries the limits' standing, in headers as on any other answer.
      const rateLimit = GatewayError.isInstance(error) ? error.rateLimit : undefined;
      if (rateLimit !== undefined) setRateLimitHeaders(res, codec.protocol, rateLimit);
      ending = started.fail(res, codec, error, setup.logger);
    } finally {
      open?.delete(started);
    }
    admission?.release(usage, cut);
    // The attempt that answered (or failed last) is the one the record describes.
    const last = attemptLog[attemptLog.length - 1];
    record.record({
      requestId,
      caller,
      protocol: codec.protocol,
      model: route?.model.id,
      provider: last?.provider ?? route?.model.providerId,
      upstreamModel: last?.upstreamModel ?? route?.model.upstreamModel,
      ...(last === undefined ? {} : { deployment: last.deployment, attemptLog }),
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
    });
  };
}
