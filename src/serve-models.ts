import type { Request, RequestHandler } from 'express';
import { createRequestId } from './http/request-id.js';
import { sendError, toGatewayError } from './http/send-error.js';
import { sendJson } from './http/send-json.js';
import type { InboundCodec } from './protocols/codec.js';
import { resolveModel, type ResolvedModel } from './routing/resolve-model.js';
import type { ResolvedGatewayOptions } from './options.js';
import { checkAccess, stampRequestId } from './serve-generation.js';

interface ModelCodecs {
  openai: InboundCodec;
  anthropic: InboundCodec;
}

/** Anthropic clients (Claude Code model discovery) mark their calls with `anthropic-version`. */
const isAnthropicCall = (req: Request) => req.headers['anthropic-version'] !== undefined;

const openAIModel = (model: ResolvedModel) => ({
  id: model.id,
  object: 'model',
  created: model.created,
  owned_by: model.ownedBy,
});

const anthropicModel = (model: ResolvedModel) => ({
  type: 'model',
  id: model.id,
  display_name: model.id,
  created_at: new Date(model.created * 1000).toISOString(),
});

/** Anthropic's cursor pagination: `limit` (default 20, max 1000), `after_id`, `before_id`. */
function anthropicPage(req: Request, models: readonly ResolvedModel[]) {
  const limit = Math.min(1000, Math.max(1, Number.parseInt(String(req.query.limit ?? '20'), 10) || 20));
  const ids = models.map((model) => model.id);
  let start = 0;
  let end = models.length;
  if (typeof req.query.after_id === 'string') start = ids.indexOf(req.query.after_id) + 1;
  if (typeof req.query.before_id === 'string') {
    end = Math.max(0, ids.indexOf(req.query.before_id));
    start = Math.max(start, end - limit);
  }
  const page = models.slice(start, Math.min(end, start + limit));
  return {
    data: page.map(anthropicModel),
    has_more: start + page.length < end,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
  };
}

/** `GET /v1/models` and `GET /v1/models/:id`, in the OpenAI shape or, for Anthropic clients, Anthropic's. */
export function createModelsHandlers(
  codecs: ModelCodecs,
  options: ResolvedGatewayOptions,
): { list: RequestHandler; one: RequestHandler } {
  const guarded =
    (answer: (req: Request) => unknown): RequestHandler =>
    async (req, res) => {
      const requestId = createRequestId();
      stampRequestId(res, requestId);
      const anthropic = isAnthropicCall(req);
      try {
        await checkAccess(req, options, anthropic);
        sendJson(res, 200, answer(req));
      } catch (error) {
        sendError(res, anthropic ? codecs.anthropic : codecs.openai, toGatewayError(error, options.logger, requestId), requestId);
      }
    };

  const list = guarded((req) =>
    isAnthropicCall(req)
      ? anthropicPage(req, options.modelList)
      : { object: 'list', data: options.modelList.map(openAIModel) },
  );

  const one = guarded((req) => {
    const segments = req.params.modelId as unknown;
    const id = Array.isArray(segments) ? segments.join('/') : String(segments);
    const model = resolveModel(options.models, id);
    return isAnthropicCall(req) ? anthropicModel(model) : openAIModel(model);
  });

  return { list, one };
}
