import type { IncomingHttpHeaders } from 'node:http';
import type { CanonicalRequest, CanonicalResponse, EventBatches, RelayBatches, RelayedAnswer } from '../../canonical/index.js';
import {
  createMessagesStreamDecoder,
  createMessagesStreamRelay,
  decodeMessagesCountTokensResponse,
  decodeMessagesResponse,
  encodeMessagesCountTokensRequest,
  encodeMessagesRequest,
  parseMessagesError,
} from '../../protocols/messages/index.js';
import { relayJsonAnswer } from '../../protocols/relay-frames.js';
import type { ProviderAdapter, ProviderContext } from '../types.js';
import { createUpstream } from '../transport/upstream.js';
import { upstreamSignal } from '../transport/cancellation.js';
import { UpstreamEvents } from '../transport/upstream-events.js';
import { UpstreamRelay } from '../transport/upstream-relay.js';
import { anthropicCapabilities } from './capabilities.js';
import { resolveAnthropicOptions, resolveDefaultMaxTokens, type AnthropicProviderOptions } from './options.js';

/** `x-should-retry: true|false` overrides the status rule, as in the Anthropic SDKs. */
function shouldRetry(headers: IncomingHttpHeaders): boolean | undefined {
  const value = headers['x-should-retry'];
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/**
 * Anthropic Messages (`POST /v1/messages`) as an upstream. Speaks the `messages` protocol, so
 * a Messages client's extension fields (`cache_control`, `context_management`, server tools and
 * their transcript blocks, …) reach Anthropic unchanged. Also counts tokens with
 * `POST /v1/messages/count_tokens`.
 *
 * @example
 * gateway({
 *   providers: { anthropic: createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY }) },
 *   models: [{ id: 'claude', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' }],
 * })
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): ProviderAdapter {
  const resolved = resolveAnthropicOptions(options);
  const upstream = createUpstream({
    name: resolved.id,
    baseURL: resolved.baseURL,
    headers: resolved.headers,
    ...resolved.transport,
    parseError: (status, body, headers) => {
      const retry = shouldRetry(headers);
      return parseMessagesError(status, body, retry === undefined ? {} : { shouldRetry: retry });
    },
  });

  const encode = (request: CanonicalRequest, context: ProviderContext, stream: boolean) =>
    encodeMessagesRequest(
      { ...request, stream },
      { defaultMaxTokens: resolveDefaultMaxTokens(resolved, request.model, context.outputTokenLimit), modelLabel: context.gatewayModel },
    );

  /** The configured betas plus the Messages caller's own `anthropic-beta` list, once each. */
  const betaHeaders = (context: ProviderContext): Record<string, string> | undefined => {
    const fromClient = context.clientHeaders?.['anthropic-beta'];
    if (fromClient === undefined) return undefined;
    const configured = resolved.headers['anthropic-beta'] ?? '';
    const betas = new Set([...configured.split(','), ...fromClient.split(',')].map((beta) => beta.trim()).filter(Boolean));
    return { 'anthropic-beta': [...betas].join(',') };
  };
  const call = (path: string, body: unknown, context: ProviderContext) => {
    // `headers` named even when absent (undefined: the provider's own only): hot-path rule 1 (docs/architecture.md#hot-path-rules).
    return { path, body, signal: upstreamSignal(context), report: context.reportUpstream, headers: betaHeaders(context) };
  };

  return {
    specificationVersion: 'v1',
    id: resolved.id,
    modelCatalog: 'anthropic',
    protocol: 'messages',
    capabilities: anthropicCapabilities,

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      const body = encode(request, context, false);
      return decodeMessagesResponse(await upstream.postJson(call('/v1/messages', body, context)));
    },

    async relayGenerate(request: CanonicalRequest, context: ProviderContext, answerModel: string): Promise<RelayedAnswer> {
      const { body, text } = await upstream.postJsonText(call('/v1/messages', encode(request, context, false), context));
      return relayJsonAnswer(text, body, answerModel, decodeMessagesResponse);
    },

    stream(request: CanonicalRequest, context: ProviderContext): EventBatches {
      const open = async () => upstream.postSse(call('/v1/messages', encode(request, context, true), context));
      return new UpstreamEvents(open, createMessagesStreamDecoder());
    },

    relayStream(request: CanonicalRequest, context: ProviderContext, answerModel: string): RelayBatches {
      const open = async () => upstream.postSse(call('/v1/messages', encode(request, context, true), context));
      return new UpstreamRelay(open, createMessagesStreamRelay({ answerModel, requestId: context.requestId }));
    },

    async countTokens(request: CanonicalRequest, context: ProviderContext): Promise<number> {
      const body = encodeMessagesCountTokensRequest(request, { modelLabel: context.gatewayModel });
      return decodeMessagesCountTokensResponse(await upstream.postJson(call('/v1/messages/count_tokens', body, context)));
    },

    close: () => upstream.close(),
  };
}
