import { Router, type Request, type RequestHandler } from 'express';
import { GatewayError } from './canonical/index.js';
import { diagnoseBaseUrl } from './http/diagnose-base-url.js';
import { createRequestId } from './http/request-id.js';
import { sendError } from './http/send-error.js';
import { resolveOptions, type GatewayOptions } from './options.js';
import type { InboundCodec } from './protocols/codec.js';
import { chatCodec } from './protocols/chat-completions/index.js';
import { messagesCodec } from './protocols/messages/index.js';
import { responsesCodec } from './protocols/responses/index.js';
import { createGenerationHandler, stampRequestId } from './serve-generation.js';
import { createModelsHandlers } from './serve-models.js';
import { createCountTokensHandler } from './serve-count-tokens.js';

/** Errors outside an endpoint are answered in Anthropic's shape on Messages paths, OpenAI's elsewhere. */
const codecForPath = (req: Request): InboundCodec =>
  req.path.includes('/messages') || req.headers['anthropic-version'] !== undefined ? messagesCodec : chatCodec;

function methodNotAllowed(allowed: string): RequestHandler {
  return (req, res) => {
    const requestId = createRequestId();
    stampRequestId(res, requestId);
    res.setHeader('Allow', allowed);
    const error = new GatewayError({
      kind: 'invalid_request',
      code: 'METHOD_NOT_ALLOWED',
      status: 405,
      message: `${req.method} is not allowed on ${req.path}; use ${allowed}.`,
    });
    sendError(res, codecForPath(req), error, requestId);
  };
}

/**
 * An Express router that serves OpenAI Chat Completions, OpenAI Responses and Anthropic Messages
 * under `/v1`, plus `GET /v1/models`. Mount it anywhere; paths it does not own pass through to
 * the host app.
 *
 * @example
 * const app = express();
 * app.use(gateway({ apiKeys: [process.env.SWITCHYARD_API_KEY!] }));
 * app.listen(8787);
 */
export function gateway(options: GatewayOptions = {}): Router {
  const resolved = resolveOptions(options);
  const router = Router();
  const anthropicRules = { acceptXApiKey: true, requireAnthropicVersion: true, forwardedHeaders: ['anthropic-beta'] };
  const openAIRules = { acceptXApiKey: false, requireAnthropicVersion: false, forwardedHeaders: [] };

  router.post('/v1/chat/completions', createGenerationHandler(chatCodec, resolved, openAIRules));
  router.post('/v1/responses', createGenerationHandler(responsesCodec, resolved, openAIRules));
  router.post(
    '/v1/messages',
    createGenerationHandler(messagesCodec, resolved, anthropicRules),
  );
  router.post('/v1/messages/count_tokens', createCountTokensHandler(resolved, anthropicRules));
  for (const path of ['/v1/chat/completions', '/v1/responses', '/v1/messages', '/v1/messages/count_tokens']) {
    router.all(path, methodNotAllowed('POST'));
  }

  const models = createModelsHandlers({ openai: chatCodec, anthropic: messagesCodec }, resolved);
  router.get('/v1/models', models.list);
  router.get('/v1/models/*modelId', models.one);

  if (resolved.diagnoseBaseUrl) {
    router.use((req, res, next) => {
      const error = diagnoseBaseUrl(req, `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}`);
      if (!error) {
        next();
        return;
      }
      const requestId = createRequestId();
      stampRequestId(res, requestId);
      sendError(res, codecForPath(req), error, requestId);
    });
  }
  return router;
}
