import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { GatewayError, type Caller } from '../canonical/index.js';
import { chatCodec } from '../protocols/chat-completions/index.js';
import { resolveModel } from '../routing/resolve-model.js';
import { answerRoute, failRequest } from '../pipeline/answer-route.js';
import { compilePipeline } from '../pipeline/compile-pipeline.js';
import { RequestContext } from '../pipeline/request-context.js';
import type { AnswerOptions } from '../pipeline/respond.js';
import { runAfter, runBefore } from '../pipeline/run-stages.js';
import { StartedRequest } from '../pipeline/start-request.js';
import type { EndpointOptions } from './stages.js';

/** The caller id probe rows carry in the ledger (`key_public_id`), so they are told apart from real traffic. */
export const PROBE_CALLER_ID = 'probe';

const probeCaller: Caller = Object.freeze({ keyId: PROBE_CALLER_ID });
const probeHeaders = Object.freeze({ 'user-agent': 'switchyard-probe' });

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
 * A tiny non-streaming Chat request through the gateway's own pipeline, compiled for the `probe`
 * entry point: the record stages, fit (adapt policy, capability check, context window), the users'
 * stages that ask for probes, the call — as the caller `probe`, so its usage and cost land in the
 * ledger like any request's. No key, limit or request policy applies: the gateway itself is the
 * caller. Its answer goes to a response with no connection: what the probe learns is read from the
 * request's context.
 */
export function createModelProbe(setup: EndpointOptions): (probe: ProbeRequest) => Promise<ProbeResult> {
  const { logger } = setup;
  const pipeline = compilePipeline(
    { services: setup.stages, requestPolicy: setup.requestPolicy, logger, userStages: setup.userStages ?? [] },
    { endpoint: 'probe', codec: chatCodec, acceptXApiKey: false, forwardedHeaders: [] },
  );
  const answering: AnswerOptions = { codec: chatCodec, call: setup.stages.call, logger, wantsUpstream: pipeline.wantsUpstream };
  return async ({ model, maxOutputTokens, timeoutMs }) => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    const started = new StartedRequest(res);
    const context = new RequestContext(started, res, probeHeaders, 'chat', 'probe', pipeline.prelude);
    context.caller = probeCaller;
    context.authenticated = true;
    // Cancelled by its own timeout: the upstream's timeout, not a client leaving.
    const timer = setTimeout(() => started.interrupt(probeTimedOut(model)), timeoutMs);
    try {
      void runBefore(context); // the prelude's record stages have no before-part
      context.request = chatCodec.decodeRequest({
        model,
        max_tokens: maxOutputTokens,
        messages: [{ role: 'user', content: 'Reply with OK.' }],
      });
      await answerRoute(context, pipeline, answering, resolveModel(setup.models, model, setup.unavailableModels));
    } catch (error) {
      failRequest(context, chatCodec, error, logger);
    } finally {
      clearTimeout(timer);
    }
    runAfter(context, logger);
    const { errorCode } = context;
    return {
      model,
      ok: errorCode === undefined,
      ...(errorCode === undefined ? {} : { errorCode }),
      durationMs: Date.now() - context.startedAt,
    };
  };
}

function probeTimedOut(model: string): GatewayError {
  return new GatewayError({ code: 'UPSTREAM_TIMEOUT', message: `The probe of '${model}' got no answer in time.` });
}
