import { GatewayError, type CanonicalRequest, type CanonicalResponse, type CanonicalStreamEvent } from '../../canonical/index.js';
import {
  createResponsesStreamDecoder,
  decodeResponsesResponse,
  encodeResponsesRequest,
  parseResponsesError,
} from '../../protocols/responses/index.js';
import type { ProviderAdapter, ProviderContext } from '../types.js';
import { createUpstream } from '../upstream.js';
import { upstreamSignal } from '../request-abort.js';
import { openAIResponsesCapabilities } from './capabilities.js';

export interface OpenAIResponsesProviderOptions {
  /** The OpenAI key sent upstream as `Authorization: Bearer …`. Default: `process.env.OPENAI_API_KEY`. */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`; `/responses` is appended. */
  baseURL?: string;
  /** Extra headers sent on every call; they override the defaults. */
  headers?: Record<string, string>;
  /** Longest wait for the answer's headers, and longest silence between two stream chunks. Default: 10 and 5 minutes. */
  timeoutMs?: number;
  /** Most connections open to the upstream at once; each call or stream holds one. Default: no limit. */
  maxConnections?: number;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** Provider id used in logs. Default `openai-responses`. */
  id?: string;
}

interface ResolvedOpenAIResponsesOptions {
  id: string;
  baseURL: string;
  headers: Record<string, string>;
  timeoutMs: number | undefined;
}

const defaultBaseURL = 'https://api.openai.com/v1';

function resolveOptions(options: OpenAIResponsesProviderOptions): ResolvedOpenAIResponsesOptions {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const baseURL = options.baseURL ?? defaultBaseURL;
  if ((apiKey === undefined || apiKey === '') && baseURL === defaultBaseURL) {
    throw new GatewayError({
      kind: 'internal',
      code: 'CONFIG_PROVIDER_MISSING_API_KEY',
      message: "The openai-responses provider needs an OpenAI API key: set OPENAI_API_KEY or pass it, e.g. createOpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY }).",
    });
  }
  return {
    id: options.id ?? 'openai-responses',
    baseURL,
    headers: {
      ...(apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
      ...(options.organization === undefined ? {} : { 'openai-organization': options.organization }),
      ...(options.project === undefined ? {} : { 'openai-project': options.project }),
      ...options.headers,
    },
    timeoutMs: options.timeoutMs,
  };
}

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
  const resolved = resolveOptions(options);
  const upstream = createUpstream({
    baseURL: resolved.baseURL,
    headers: resolved.headers,
    parseError: parseResponsesError,
    ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
    ...(resolved.timeoutMs === undefined ? {} : { headersTimeoutMs: resolved.timeoutMs, bodyTimeoutMs: resolved.timeoutMs }),
  });
  const call = (request: CanonicalRequest, context: ProviderContext, stream: boolean) => ({
    path: '/responses',
    body: encodeResponsesRequest(request, { stream }),
    signal: upstreamSignal(context),
    headers: { 'x-client-request-id': context.requestId },
  });

  return {
    id: resolved.id,
    protocol: 'responses',
    capabilities: openAIResponsesCapabilities,

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      return decodeResponsesResponse(await upstream.postJson(call(request, context, false)));
    },

    async *stream(request: CanonicalRequest, context: ProviderContext): AsyncIterable<CanonicalStreamEvent> {
      const messages = await upstream.postSse(call(request, context, true));
      const decoder = createResponsesStreamDecoder({ model: request.model });
      let output = false;
      // A failure before any output is thrown, so the gateway can answer with a status (or fall back).
      const pass = (event: CanonicalStreamEvent): CanonicalStreamEvent => {
        if (event.type === 'error' && !output) throw event.error;
        if (event.type !== 'start') output = true;
        return event;
      };
      for await (const message of messages) {
        for (const event of decoder.decode(message)) {
          if (event.type === 'finish') messages.complete();
          yield pass(event);
          if (event.type === 'finish' || event.type === 'error') return;
        }
      }
      for (const event of decoder.end()) yield pass(event);
    },
  };
}
