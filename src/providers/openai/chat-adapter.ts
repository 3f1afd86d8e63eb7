import type { CanonicalRequest, CanonicalResponse, EventBatches, RelayBatches, RelayedAnswer } from '../../canonical/index.js';
import {
  chatCodec,
  createChatStreamDecoder,
  createChatStreamRelay,
  decodeChatResponse,
  encodeChatRequest,
  parseChatError,
  type ChatDialect,
  type ChatWireRequest,
} from '../../protocols/chat-completions/index.js';
import type { ModelCapabilities, ProviderAdapter, ProviderContext } from '../types.js';
import { createUpstream, type UpstreamOptions } from '../transport/upstream.js';
import { upstreamSignal } from '../transport/cancellation.js';
import { UpstreamEvents } from '../transport/upstream-events.js';
import { UpstreamRelay } from '../transport/upstream-relay.js';
import { relayJsonAnswer } from '../../protocols/relay-frames.js';

/** Where one model's calls go: the path under the base URL, and the `model` the body names. */
export interface ChatTarget {
  path: string;
  model: string;
  /** Extra query parameters for this call (Azure `api-version`). */
  query?: Record<string, string>;
}

/** Everything that makes one Chat Completions upstream different from another. */
export interface ChatAdapterOptions {
  id: string;
  /** Transport: base URL, auth headers, timeouts. `parseError` is the Chat one. */
  upstream: Omit<UpstreamOptions, 'parseError' | 'name'>;
  dialect: ChatDialect;
  /** Path and body model for an upstream model id. Default: `/chat/completions` and the id itself. */
  target?(model: string): ChatTarget;
  capabilities?(model: string): Partial<ModelCapabilities>;
  /** `ProviderAdapter.modelCatalog`. */
  modelCatalog?: string;
  /**
   * Whether a Chat caller's answer may pass through as the upstream wrote it (`relayStream`,
   * `relayGenerate`): for upstreams that write OpenAI's own shapes, whose quirks need no decoding.
   */
  relay?: boolean;
}

/**
 * A provider adapter for any Chat Completions upstream: encodes the canonical request in the
 * upstream's dialect, posts it with the provider's own key (never the caller's), and decodes the
 * JSON answer or the SSE stream incrementally. The OpenAI and OpenAI-compatible providers are
 * both this adapter with a different configuration.
 */
export function createChatAdapter(config: ChatAdapterOptions): ProviderAdapter & { close(): Promise<void> } {
  const upstream = createUpstream({ ...config.upstream, name: config.id, parseError: parseChatError });
  const target = config.target ?? ((model: string): ChatTarget => ({ path: '/chat/completions', model }));

  const encodeOptions = { dialect: config.dialect, hintFields: chatCodec.hintFields };

  const prepare = (request: CanonicalRequest, stream: boolean): { body: ChatWireRequest; where: ChatTarget } => {
    const where = target(request.model);
    const encodable = request.stream === stream ? request : { ...request, stream };
    const body = encodeChatRequest(encodable, encodeOptions);
    // The body is this call's own object: the upstream's id for the model replaces ours in place.
    body.model = where.model;
    return { body, where };
  };

  /** The upstream call for one request: its path, body (with the upstream's model id), cancellation and report. */
  const callOf = (request: CanonicalRequest, context: ProviderContext, stream: boolean) => {
    const { body, where } = prepare(request, stream);
    // `query` named even when absent (undefined: the upstream adds none): hot-path rule 1 (docs/architecture.md#hot-path-rules).
    return { path: where.path, body, signal: upstreamSignal(context), report: context.reportUpstream, query: where.query };
  };

  return {
    specificationVersion: 'v1',
    id: config.id,
    protocol: 'chat',
    ...(config.capabilities === undefined ? {} : { capabilities: config.capabilities }),
    ...(config.modelCatalog === undefined ? {} : { modelCatalog: config.modelCatalog }),

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      return decodeChatResponse(await upstream.postJson(callOf(request, context, false)));
    },

    stream(request: CanonicalRequest, context: ProviderContext): EventBatches {
      const open = async () => upstream.postSse(callOf(request, context, true));
      return new UpstreamEvents(open, createChatStreamDecoder());
    },

    ...(config.relay === true ? { relayGenerate, relayStream } : {}),

    close: () => upstream.close(),
  };

  async function relayGenerate(request: CanonicalRequest, context: ProviderContext, answerModel: string): Promise<RelayedAnswer> {
    const answer = await upstream.postJsonText(callOf(request, context, false));
    return relayJsonAnswer(answer.text, answer.body, answerModel, decodeChatResponse);
  }

  function relayStream(request: CanonicalRequest, context: ProviderContext, answerModel: string): RelayBatches {
    const open = async () => upstream.postSse(callOf(request, context, true));
    return new UpstreamRelay(open, createChatStreamRelay({ answerModel, includeUsage: request.includeUsage === true }));
  }
}
