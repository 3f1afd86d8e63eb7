import { sendJson } from '../http/send-json.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { InboundCodec } from '../protocols/codec.js';
import { resolveModel, type ResolvedModel } from '../routing/resolve-model.js';
import { anthropicModelEntry, openAIModelEntry } from './model-entry.js';
import type { EndpointOptions } from './stages.js';
import { StartedRequest } from '../pipeline/start-request.js';

/** Anthropic clients (Claude Code model discovery) mark their calls with `anthropic-version`. */
const isAnthropicCall = (req: HttpRequest) => req.headers['anthropic-version'] !== undefined;

const openAIModel = openAIModelEntry;
const anthropicModel = anthropicModelEntry;

function queryOf(req: HttpRequest): URLSearchParams {
  const url = req.url ?? '';
  const start = url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : url.slice(start + 1));
}

/** Anthropic's cursor pagination: `limit` (default 20, max 1000), `after_id`, `before_id`. */
function anthropicPage(req: HttpRequest, models: readonly ResolvedModel[]) {
  const query = queryOf(req);
  const limit = Math.min(1000, Math.max(1, Number.parseInt(query.get('limit') ?? '20', 10) || 20));
  const ids = models.map((model) => model.id);
  const afterId = query.get('after_id');
  const beforeId = query.get('before_id');
  let start = 0;
  let end = models.length;
  if (afterId !== null) start = ids.indexOf(afterId) + 1;
  if (beforeId !== null) {
    end = Math.max(0, ids.indexOf(beforeId));
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

/** Percent-decoded, or as sent when the encoding is broken (it then names no model, a clean 404). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface ModelsEndpoints {
  /** `GET /v1/models`. */
  list(req: HttpRequest, res: HttpResponse): Promise<void>;
  /** `GET /v1/models/:id`; `id` is the rest of the path after `/v1/models/`, still percent-encoded. */
  one(req: HttpRequest, res: HttpResponse, id: string): Promise<void>;
}

/** The error shapes of the two families of model-list clients. */
export interface ModelsCodecs {
  openai: InboundCodec;
  anthropic: InboundCodec;
}

/** `GET /v1/models` and `GET /v1/models/:id`, in the OpenAI shape or, for Anthropic clients, Anthropic's. */
export function createModelsEndpoints(codecs: ModelsCodecs, setup: EndpointOptions): ModelsEndpoints {
  const answer = async (req: HttpRequest, res: HttpResponse, body: () => unknown) => {
    const started = new StartedRequest(res);
    const anthropic = isAnthropicCall(req);
    try {
      await setup.stages.authenticate(req.headers, anthropic);
      sendJson(res, 200, body(), started.requestId);
    } catch (error) {
      started.fail(res, anthropic ? codecs.anthropic : codecs.openai, error, setup.logger);
    }
  };

  return {
    list: (req, res) =>
      answer(req, res, () =>
        isAnthropicCall(req) ? anthropicPage(req, setup.modelList) : { object: 'list', data: setup.modelList.map(openAIModel) },
      ),
    one: (req, res, encodedId) =>
      answer(req, res, () => {
        const model = resolveModel(setup.models, safeDecode(encodedId), setup.unavailableModels);
        return isAnthropicCall(req) ? anthropicModel(model) : openAIModel(model);
      }),
  };
}
