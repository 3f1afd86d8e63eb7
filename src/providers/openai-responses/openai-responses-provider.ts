import type { CanonicalRequest, CanonicalResponse, EventBatches, RelayBatches, RelayedAnswer } from '../../canonical/index.js';
import {
  createResponsesStreamDecoder,
  createResponsesStreamRelay,
  decodeResponsesInputTokensResponse,
  decodeResponsesResponse,
  encodeResponsesInputTokensRequest,
  encodeResponsesRequest,
  parseResponsesError,
} from '../../protocols/responses/index.js';
import { relayJsonAnswer } from '../../protocols/relay-frames.js';
import type { ProviderAdapter, ProviderContext } from '../types.js';
import { createUpstream } from '../transport/upstream.js';
import { upstreamSignal } from '../transport/cancellation.js';
import { UpstreamEvents } from '../transport/upstream-events.js';
import { UpstreamRelay } from '../transport/upstream-relay.js';
import { openAIResponsesCapabilities } from './capabilities.js';
import { resolveOpenAIResponsesOptions, type OpenAIResponsesProviderOptions } from './options.js';

/**
 * The OpenAI Responses API (`POST /v1/responses`) as a provider. Requests are sent with
 * `store: false` unless a Responses caller set `store` (the gateway keeps no state), reasoning
 * comes back encrypted so it can be replayed, and fields only Responses knows
 * (`previous_response_id`, `conversation`, hosted tools…) pass through from Responses callers.
 *
 * @example
 * gateway({
 *   providers: { openai: createOpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY }) },
 *   models: [{ id: 'gpt-5', provider: 'openai' }],
 * });
 */
export function createOpenAIResponsesProvider(options: OpenAIResponsesProviderOptions = {}): ProviderAdapter {
  const resolved = resolveOpenAIResponsesOptions(options);
  const upstream = createUpstream({
    name: resolved.id,
    baseURL: resolved.baseURL,
    headers: resolved.headers,
    parseError: parseResponsesError,
    ...resolved.transport,
  });
  const post = (path: string, body: Record<string, unknown>, context: ProviderContext) => ({
    path,
    body,
    signal: upstreamSignal(context),
    report: context.reportUpstream,
    headers: { 'x-client-request-id': context.requestId },
  });
  const call = (request: CanonicalRequest, context: ProviderContext, stream: boolean) =>
    post('/responses', encodeResponsesRequest(request, { stream }), context);

  return {
    specificationVersion: 'v1',
    id: resolved.id,
    protocol: 'responses',
    modelCatalog: 'openai',
    capabilities: openAIResponsesCapabilities,

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      return decodeResponsesResponse(await upstream.postJson(call(request, context, false)));
    },

    async relayGenerate(request: CanonicalRequest, context: ProviderContext, answerModel: string): Promise<RelayedAnswer> {
      const { body, text } = await upstream.postJsonText(call(request, context, false));
      return relayJsonAnswer(text, body, answerModel, decodeResponsesResponse);
    },

    stream(request: CanonicalRequest, context: ProviderContext): EventBatches {
      const open = async () => upstream.postSse(call(request, context, true));
      return new UpstreamEvents(open, createResponsesStreamDecoder({ model: request.model }));
    },

    relayStream(request: CanonicalRequest, context: ProviderContext, answerModel: string): RelayBatches {
      const open = async () => upstream.postSse(call(request, context, true));
      const relay = createResponsesStreamRelay({
        answerModel,
        upstreamModel: request.model,
        requestId: context.requestId,
        created: Math.floor(Date.now() / 1000),
      });
      return new UpstreamRelay(open, relay);
    },

    async countTokens(request: CanonicalRequest, context: ProviderContext): Promise<number> {
      const answer = await upstream.postJson(post('/responses/input_tokens', encodeResponsesInputTokensRequest(request), context));
      return decodeResponsesInputTokensResponse(answer);
    },

    close: () => upstream.close(),
  };
}
