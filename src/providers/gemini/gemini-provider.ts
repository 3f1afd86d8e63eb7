import type { CanonicalRequest, CanonicalResponse, EventBatches } from '../../canonical/index.js';
import {
  createGeminiStreamDecoder,
  decodeGeminiResponse,
  encodeGeminiRequest,
  parseGeminiError,
  type GeminiDecodeOptions,
} from '../../protocols/gemini/index.js';
import type { ProviderAdapter, ProviderContext } from '../types.js';
import { inlineMediaUrls } from './inline-media-urls.js';
import { createUpstream } from '../transport/upstream.js';
import { upstreamSignal } from '../transport/cancellation.js';
import { UpstreamEvents } from '../transport/upstream-events.js';
import { geminiCapabilities } from './capabilities.js';
import { resolveGeminiOptions, type GeminiProviderOptions } from './options.js';

/** `models/{id}` unless the id already names its collection (`tunedModels/…`, `models/…`). */
function modelPath(model: string): string {
  return model.includes('/') ? `/${model}` : `/models/${encodeURIComponent(model)}`;
}

/**
 * A provider for the Google Gemini API (AI Studio keys), speaking its native
 * `generateContent` protocol: system text, tools, tool results, images, JSON output and thinking
 * are translated; thought signatures survive the round trip through any client (see
 * `protocols/gemini/signatures.ts`).
 *
 * @example
 * gateway({
 *   providers: { google: createGeminiProvider({ apiKey: process.env.GEMINI_API_KEY }) },
 *   models: [{ id: 'gemini-flash', provider: 'google', upstreamModel: 'gemini-3.5-flash' }],
 * })
 */
export function createGeminiProvider(options: GeminiProviderOptions = {}): ProviderAdapter {
  const resolved = resolveGeminiOptions(options);
  const upstream = createUpstream({
    name: resolved.id,
    baseURL: resolved.baseURL,
    headers: resolved.headers,
    ...resolved.transport,
    parseError: (status, body) => parseGeminiError(status, body),
  });

  const decodeOptions = (request: CanonicalRequest, context: ProviderContext): GeminiDecodeOptions => ({
    fallbackId: `gemini_${context.requestId}`,
    fallbackModel: request.model,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
  });
  const body = async (request: CanonicalRequest, context: ProviderContext) => {
    const media = resolved.fetchMediaUrls;
    const prepared = media === undefined ? request : await inlineMediaUrls(request, media, context.signal);
    return encodeGeminiRequest(prepared, { modelLabel: context.gatewayModel });
  };

  return {
    specificationVersion: 'v1',
    id: resolved.id,
    modelCatalog: 'google',
    capabilities: geminiCapabilities,

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      const answer = await upstream.postJson({
        path: `${modelPath(request.model)}:generateContent`,
        body: await body(request, context),
        signal: upstreamSignal(context),
        report: context.reportUpstream,
      });
      return decodeGeminiResponse(answer, decodeOptions(request, context));
    },

    stream(request: CanonicalRequest, context: ProviderContext): EventBatches {
      const open = async () =>
        upstream.postSse({
          path: `${modelPath(request.model)}:streamGenerateContent`,
          query: { alt: 'sse' },
          body: await body(request, context),
          signal: upstreamSignal(context),
          report: context.reportUpstream,
        });
      return new UpstreamEvents(open, createGeminiStreamDecoder(decodeOptions(request, context)));
    },

    close: () => upstream.close(),
  };
}
