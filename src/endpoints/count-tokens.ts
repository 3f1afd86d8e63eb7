import { noteModel } from '../http/answer-note.js';
import { checkAnthropicVersion } from '../http/check-anthropic-version.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import type { EndpointHandler } from '../http/types.js';
import { decodeMessagesCountTokensRequest, encodeMessagesCountTokensResponse } from '../protocols/messages/count-tokens.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { applyRequestPolicy } from '../policy/apply-request-policy.js';
import { policeClientHeaders } from '../policy/police-client-headers.js';
import { policyFor } from '../policy/request-policy-table.js';
import { createProviderContext } from '../providers/transport/request-abort.js';
import { resolveModel } from '../routing/resolve-model.js';
import { estimateInputTokens } from '../usage/estimate-input-tokens.js';
import { anthropicRules, pickClientHeaders } from './endpoint-rules.js';
import type { EndpointSetup } from './stages.js';
import { StartedRequest } from './start-request.js';

/**
 * `POST /v1/messages/count_tokens` (the Anthropic SDK's `messages.countTokens()`, Claude Code):
 * authenticate → decode → resolve the model → apply the request policy → count. The provider
 * counts when it can; otherwise the gateway estimates with a tokenizer. Nothing is generated, so
 * nothing is admitted or recorded.
 */
export function createCountTokensEndpoint(setup: EndpointSetup): EndpointHandler {
  const readBody = createJsonBodyReader(setup.bodyLimit);
  return async (req, res) => {
    const started = new StartedRequest(res);
    const { requestId } = started;
    try {
      const caller = await setup.stages.authenticate.authenticate(req.headers, anthropicRules.acceptXApiKey);
      checkAnthropicVersion(req.headers);
      const request = decodeMessagesCountTokensRequest(await readBody(req));
      const model = resolveModel(setup.models, request.model, setup.unavailableModels);
      noteModel(res, model.id);
      // The same policy as generation: a refused field is refused here too, a stripped one is not counted upstream.
      const policy = policyFor(setup.requestPolicy, caller, model.id);
      const upstreamRequest = { ...applyRequestPolicy(policy, request, 'messages'), model: model.upstreamModel };
      const clientHeaders = policeClientHeaders(policy, pickClientHeaders(req, anthropicRules));
      const context = createProviderContext(started.abort, {
        requestId,
        gatewayModel: model.id,
        logger: setup.logger,
        ...(clientHeaders ? { clientHeaders } : {}),
      });
      const inputTokens = model.adapter.countTokens
        ? await model.adapter.countTokens(upstreamRequest, context)
        : await estimateInputTokens(upstreamRequest);
      sendJson(res, 200, encodeMessagesCountTokensResponse(inputTokens), requestId);
    } catch (error) {
      started.fail(res, messagesCodec, error, setup.logger);
    }
  };
}
