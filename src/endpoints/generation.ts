import { noteModel, noteRecorded } from '../http/request-log-notes.js';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import type { EndpointHandler } from '../http/types.js';
import type { InboundCodec } from '../protocols/codec.js';
import { resolveModel } from '../routing/resolve-model.js';
import { answerRoute, failRequest } from '../pipeline/answer-route.js';
import { compilePipeline } from '../pipeline/compile-pipeline.js';
import type { OpenRequests } from '../pipeline/open-requests.js';
import { RequestContext } from '../pipeline/request-context.js';
import type { AnswerOptions } from '../pipeline/respond.js';
import { runAfter, runBefore } from '../pipeline/run-stages.js';
import { StartedRequest } from '../pipeline/start-request.js';
import type { EndpointRules } from './endpoint-rules.js';
import type { EndpointOptions } from './stages.js';

/**
 * `POST /v1/chat/completions`, `/v1/responses` and `/v1/messages`: one generation request in the
 * caller's protocol, as one context passed through the route's compiled stages (src/pipeline):
 * the prelude (record, authenticate) → decode → resolve the model → fit → police → admit → users'
 * stages → call and respond; then every reached stage's after-part, in reverse. `open`, when
 * given, tracks the requests being answered so that a shutdown can interrupt them.
 */
export function createGenerationEndpoint(
  codec: InboundCodec,
  setup: EndpointOptions,
  rules: EndpointRules,
  open?: OpenRequests,
): EndpointHandler {
  const readBody = createJsonBodyReader(setup.bodyLimit);
  const { logger } = setup;
  const pipeline = compilePipeline(
    { services: setup.stages, requestPolicy: setup.requestPolicy, logger, userStages: setup.userStages ?? [] },
    { endpoint: 'generation', codec, acceptXApiKey: rules.acceptXApiKey, forwardedHeaders: rules.forwardedHeaders },
  );
  const answering: AnswerOptions = { codec, call: setup.stages.call, logger, wantsUpstream: pipeline.wantsUpstream };
  return async (req, res) => {
    const started = new StartedRequest(res);
    noteRecorded(res);
    const context = new RequestContext(started, res, req.headers, codec.protocol, 'generation', pipeline.prelude);
    try {
      open?.add(started);
      const before = runBefore(context);
      if (before instanceof Promise) await before;
      if (rules.requireAnthropicVersion) checkAnthropicVersion(req.headers);
      context.request = codec.decodeRequest(await readBody(req));
      const model = resolveModel(setup.models, context.request.model, setup.unavailableModels);
      noteModel(res, model.id);
      await answerRoute(context, pipeline, answering, model);
    } catch (error) {
      failRequest(context, codec, error, logger);
    } finally {
      open?.delete(started);
    }
    runAfter(context, logger);
  };
}
