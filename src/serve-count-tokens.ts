import { checkAnthropicVersion } from './http/check-anthropic-version.js';
import { createJsonBodyReader } from './http/read-json-body.js';
import { createRequestId } from './http/request-id.js';
import { sendError, toGatewayError } from './http/send-error.js';
import { sendJson } from './http/send-json.js';
import type { EndpointHandler } from './http/types.js';
import {
  decodeMessagesCountTokensRequest,
  encodeMessagesCountTokensResponse,
} from './protocols/messages/count-tokens.js';
import { messagesCodec } from './protocols/messages/index.js';
import { createProviderContext, RequestAbort } from './providers/request-abort.js';
import { resolveModel } from './routing/resolve-model.js';
import type { ResolvedGatewayOptions } from './options.js';
import { checkAccess, pickClientHeaders, type EndpointRules } from './serve-generation.js';
import { estimateInputTokens } from './usage/estimate-input-tokens.js';

/**
 * `POST /v1/messages/count_tokens` (the Anthropic SDK's `messages.countTokens()`, Claude Code).
 * The provider counts when it can; otherwise the gateway estimates with a tokenizer.
 */
export function createCountTokensHandler(options: ResolvedGatewayOptions, rules: EndpointRules): EndpointHandler {
  const readBody = createJsonBodyReader(options.bodyLimit);
  return async (req, res) => {
    const requestId = createRequestId();
    const abort = new RequestAbort();
    res.on('close', () => abort.abort());
    try {
      await checkAccess(req, options, true);
      checkAnthropicVersion(req.headers);
      const request = decodeMessagesCountTokensRequest(await readBody(req));
      const model = resolveModel(options.models, request.model);
      const upstreamRequest = { ...request, model: model.upstreamModel };
      const clientHeaders = pickClientHeaders(req, rules.forwardedHeaders);
      const context = createProviderContext(abort, {
        requestId,
        gatewayModel: model.id,
        logger: options.logger,
        ...(clientHeaders ? { clientHeaders } : {}),
      });
      const inputTokens = model.adapter.countTokens
        ? await model.adapter.countTokens(upstreamRequest, context)
        : await estimateInputTokens(upstreamRequest);
      sendJson(res, 200, encodeMessagesCountTokensResponse(inputTokens), requestId);
    } catch (error) {
      sendError(res, messagesCodec, toGatewayError(error, options.logger, requestId), requestId);
    }
  };
}
