import { GatewayError, type Usage } from '../canonical/index.js';
import { createRequestId } from '../http/request-id.js';
import { chatCodec } from '../protocols/chat-completions/index.js';
import { createProviderContext, RequestAbort } from '../providers/transport/cancellation.js';
import { resolveRoute } from '../routing/resolve-route.js';
import type { EndpointSetup } from './stages.js';

/** The caller id probe rows carry in the ledger (`key_public_id`), so they are told apart from real traffic. */
export const PROBE_CALLER_ID = 'probe';

/** How one probe went. */
export interface ProbeResult {
  readonly model: string;
  readonly ok: boolean;
  /** The error's code when it failed. */
  readonly errorCode?: string;
  readonly durationMs: number;
}

export interface ProbeRequest {
  readonly model: string;
  /** Output allowance; some upstreams refuse very small ones (OpenAI Responses wants at least 16). */
  readonly maxOutputTokens: number;
  /** The probe is cancelled after this long. */
  readonly timeoutMs: number;
}

/**
 * A tiny non-streaming request through the gateway's own call path — route, "call" stage, "record"
 * stage — as the caller `probe`, so its usage and cost land in the ledger like any request's. No key,
 * limit or request policy applies: the gateway itself is the caller.
 */
export function createModelProbe(setup: EndpointSetup): (probe: ProbeRequest) => Promise<ProbeResult> {
  const { call, record } = setup.stages;
  return async ({ model, maxOutputTokens, timeoutMs }) => {
    const requestId = createRequestId();
    const startedAt = Date.now();
    const abort = new RequestAbort();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let status = 200;
    let errorCode: string | undefined;
    let usage: Usage | undefined;
    let attempts = 0;
    let route;
    try {
      const request = chatCodec.decodeRequest({ model, max_tokens: maxOutputTokens, messages: [{ role: 'user', content: 'Reply with OK.' }] });
      route = resolveRoute(setup.models, request, chatCodec, setup.unavailableModels);
      const context = createProviderContext(abort, { requestId, gatewayModel: route.model.id, logger: setup.logger });
      attempts = 1;
      usage = (await call.generate(route, context)).response.usage;
    } catch (error) {
      const failure = GatewayError.isInstance(error)
        ? error
        : new GatewayError({ code: 'INTERNAL_ERROR', message: 'The probe failed.', cause: error });
      // A probe cancelled by its own timeout is the upstream's timeout, not a client leaving.
      const timedOut = abort.aborted;
      status = timedOut ? 504 : failure.status;
      errorCode = timedOut ? 'UPSTREAM_TIMEOUT' : failure.code;
    } finally {
      clearTimeout(timer);
    }
    const durationMs = Date.now() - startedAt;
    record.record({
      requestId,
      caller: { keyId: PROBE_CALLER_ID },
      protocol: 'chat',
      model: route?.model.id ?? model,
      provider: route?.model.providerId,
      upstreamModel: route?.model.upstreamModel,
      stream: false,
      status,
      errorCode,
      usage,
      upstream: undefined,
      startedAt,
      durationMs,
      attempts,
      firstOutputMs: undefined,
      userAgent: 'switchyard-probe',
      cut: undefined,
    });
    return { model, ok: errorCode === undefined, ...(errorCode === undefined ? {} : { errorCode }), durationMs };
  };
}
