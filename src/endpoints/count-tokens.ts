import { noteModel } from '../http/request-log-notes.js';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import { decodeMessagesCountTokensRequest, encodeMessagesCountTokensResponse } from '../protocols/messages/count-tokens.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { createProviderContext } from '../providers/transport/cancellation.js';
import { resolveModel } from '../routing/resolve-model.js';
import { estimateInputTokens } from '../usage/estimate-input-tokens.js';
import { compilePipeline } from '../pipeline/compile-pipeline.js';
import { RequestContext } from '../pipeline/request-context.js';
import { runAfter, runBefore } from '../pipeline/run-stages.js';
import { StartedRequest } from '../pipeline/start-request.js';
import { anthropicRules } from './endpoint-rules.js';
import type { EndpointOptions } from './stages.js';

/**
 * `POST /v1/messages/count_tokens` (the Anthropic SDK's `messages.countTokens()`, Claude Code):
 * the same stages as a generation request where they apply — authenticate → decode → resolve →
 * fit (adapt policy and capability check; no window, nothing is generated) → police → users'
 * stages that ask for count_tokens — then count. The provider counts when it can; otherwise the
 * gateway estimates with a tokenizer. Nothing is generated, so nothing is admitted or recorded.
 */
export function createCountTokensEndpoint(setup: EndpointOptions): EndpointHandler {
  const readBody = createJsonBodyReader(setup.bodyLimit);
  const { logger } = setup;
  const pipeline = compilePipeline(
    { services: setup.stages, requestPolicy: setup.requestPolicy, logger, userStages: setup.userStages ?? [] },
    {
      endpoint: 'count_tokens',
      codec: messagesCodec,
      acceptXApiKey: anthropicRules.acceptXApiKey,
      forwardedHeaders: anthropicRules.forwardedHeaders,
    },
  );
  return async (req, res) => {
    const started = new StartedRequest(res);
    const { requestId } = started;
    const context = new RequestContext(started, res, req.headers, 'messages', 'count_tokens', pipeline.prelude);
    try {
      await runBefore(context);
      checkAnthropicVersion(req.headers);
      context.request = decodeMessagesCountTokensRequest(await readBody(req));
      const model = resolveModel(setup.models, context.request.model, setup.unavailableModels);
      context.resolved = model;
      noteModel(res, model.id);
      context.stages = pipeline.routeOf(model).stages;
      // A stage's answer gives the count only when it knows it: an unknown count is counted, never sent as 0.
      const answered = (await runBefore(context))?.response.usage.inputTokens;
      if (answered !== undefined) {
        sendJson(res, 200, encodeMessagesCountTokensResponse(answered), requestId);
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
      sendJson(res, 200, encodeMessagesCountTokensResponse(inputTokens), requestId);
    } catch (error) {
      const ending = started.fail(res, messagesCodec, error, logger);
      context.status = ending.status;
      context.errorCode = ending.errorCode;
    } finally {
      runAfter(context, logger);
    }
  };
}
