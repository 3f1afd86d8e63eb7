import type { CanonicalRequest } from '../canonical/index.js';
import { noteModel } from '../http/request-log-notes.js';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import type { InboundCodec } from '../protocols/codec.js';
import { decodeMessagesCountTokensRequest, encodeMessagesCountTokensResponse } from '../protocols/messages/count-tokens.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { responsesCodec } from '../protocols/responses/index.js';
import { decodeResponsesInputTokensRequest, encodeResponsesInputTokensResponse } from '../protocols/responses/input-tokens.js';
import { createProviderContext } from '../providers/transport/cancellation.js';
import { resolveModel } from '../routing/resolve-model.js';
import { estimateInputTokens } from '../usage/estimate-input-tokens.js';
import { compilePipeline } from '../pipeline/compile-pipeline.js';
import { RequestContext } from '../pipeline/request-context.js';
import { runAfter, runBefore } from '../pipeline/run-stages.js';
import { StartedRequest } from '../pipeline/start-request.js';
import { anthropicRules, openAIRules, type EndpointRules } from './endpoint-rules.js';
import type { EndpointOptions } from './stages.js';

/** One protocol's token-count endpoint: how its body decodes and its answer is written. */
export interface TokenCounting {
  readonly codec: InboundCodec;
  readonly rules: EndpointRules;
  decodeRequest(body: unknown): CanonicalRequest;
  encodeAnswer(inputTokens: number): object;
}

/** `POST /v1/messages/count_tokens`: the Anthropic SDK's `messages.countTokens()`, Claude Code. */
export const messagesTokenCounting: TokenCounting = {
  codec: messagesCodec,
  rules: anthropicRules,
  decodeRequest: decodeMessagesCountTokensRequest,
  encodeAnswer: encodeMessagesCountTokensResponse,
};

/** `POST /v1/responses/input_tokens`: the OpenAI SDK's `responses.inputTokens.count()`. */
export const responsesTokenCounting: TokenCounting = {
  codec: responsesCodec,
  rules: openAIRules,
  decodeRequest: decodeResponsesInputTokensRequest,
  encodeAnswer: encodeResponsesInputTokensResponse,
};

/**
 * A token-count endpoint (`counting` says which protocol's): the same stages as a generation
 * request where they apply — authenticate → decode → resolve → fit (adapt policy and capability
 * check; no window, nothing is generated) → police → users' stages that ask for count_tokens —
 * then count. The provider counts when it can; otherwise the gateway estimates with a tokenizer.
 * Nothing is generated, so nothing is admitted or recorded.
 */
export function createCountTokensEndpoint(setup: EndpointOptions, counting: TokenCounting): EndpointHandler {
  const readBody = createJsonBodyReader(setup.bodyLimit);
  const { logger } = setup;
  const { codec, rules } = counting;
  const pipeline = compilePipeline(
    { services: setup.stages, requestPolicy: setup.requestPolicy, logger, userStages: setup.userStages ?? [] },
    { endpoint: 'count_tokens', codec, acceptXApiKey: rules.acceptXApiKey, forwardedHeaders: rules.forwardedHeaders },
  );
  return async (req, res) => {
    const started = new StartedRequest(res);
    const { requestId } = started;
    const context = new RequestContext(started, res, req.headers, codec.protocol, 'count_tokens', pipeline.prelude);
    try {
      await runBefore(context);
      if (rules.requireAnthropicVersion) checkAnthropicVersion(req.headers);
      context.request = counting.decodeRequest(await readBody(req));
      const model = resolveModel(setup.models, context.request.model, setup.unavailableModels);
      context.resolved = model;
      noteModel(res, model.id);
      context.stages = pipeline.routeOf(model).stages;
      // A stage's answer gives the count only when it knows it: an unknown count is counted, never sent as 0.
      const answered = (await runBefore(context))?.response.usage.inputTokens;
      if (answered !== undefined) {
        sendJson(res, 200, counting.encodeAnswer(answered), requestId);
        return;
      }
      const upstreamRequest = { ...context.request, model: model.upstreamModel };
      const providerContext = createProviderContext(started.abort, {
        requestId,
        gatewayModel: model.id,
        logger,
        ...(context.clientHeaders ? { clientHeaders: context.clientHeaders } : {}),
      });
      const inputTokens = model.adapter.countTokens
        ? await model.adapter.countTokens(upstreamRequest, providerContext)
        : await estimateInputTokens(upstreamRequest);
      sendJson(res, 200, counting.encodeAnswer(inputTokens), requestId);
    } catch (error) {
      const ending = started.fail(res, codec, error, logger);
      context.status = ending.status;
      context.errorCode = ending.errorCode;
    } finally {
      runAfter(context, logger);
    }
  };
}
