import { z } from 'zod';
import { configError } from '../../canonical/index.js';
import { hasHeader, parseProviderOptions, providerOptionsShape, transportOptionsOf, type ProviderOptions } from '../provider-options.js';
import type { MediaFetchOptions } from './inline-media-urls.js';

/** Options of the Gemini provider (`type: 'gemini'`). */
export interface GeminiProviderOptions extends ProviderOptions {
  /** Gemini API key (AI Studio), sent as `x-goog-api-key`. Default: `process.env.GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** API base including the version. Default `https://generativelanguage.googleapis.com/v1beta` (thinking, thought signatures and `parametersJsonSchema` need v1beta). */
  baseURL?: string;
  /** Provider id in logs. Default `gemini`. */
  id?: string;
  /**
   * Opt-in: download images and PDFs given by URL and send them inline, since Gemini fetches
   * only some public URLs itself. `true` uses the defaults (https only, 10 MB, 10 s, no private
   * networks). Default: off — such URLs are refused with a 400.
   */
  fetchMediaUrls?: boolean | MediaFetchOptions;
}

export const DEFAULT_GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

export const geminiProviderOptionsSchema = z.strictObject({
  ...providerOptionsShape,
  fetchMediaUrls: z
    .union([
      z.boolean(),
      z.strictObject({
        maxBytes: z.number().int().positive().optional(),
        timeoutMs: z.number().int().positive().optional(),
        allowPrivateNetworks: z.boolean().optional(),
      }),
    ])
    .optional(),
});

export interface ResolvedGeminiOptions {
  id: string;
  baseURL: string;
  headers: Record<string, string>;
  /** What the transport takes: timeouts, connections, answer size. */
  transport: ReturnType<typeof transportOptionsOf>;
  /** Set when media URLs are downloaded and inlined. */
  fetchMediaUrls: MediaFetchOptions | undefined;
}

/** Validates the options once into a new object (the caller's is never changed). Throws a coded config error. */
export function resolveGeminiOptions(options: GeminiProviderOptions, env: NodeJS.ProcessEnv = process.env): ResolvedGeminiOptions {
  const example = 'createGeminiProvider({ apiKey: process.env.GEMINI_API_KEY })';
  const valid = parseProviderOptions(geminiProviderOptionsSchema, options, 'Gemini provider option', example);
  const extra = valid.headers ?? {};
  const apiKey = valid.apiKey ?? (env.GEMINI_API_KEY || undefined) ?? (env.GOOGLE_API_KEY || undefined);
  if (apiKey === undefined && !hasHeader(extra, 'x-goog-api-key') && !hasHeader(extra, 'authorization')) {
    throw configError(
      'CONFIG_PROVIDER_API_KEY_MISSING',
      "The Gemini provider has no API key. Set GEMINI_API_KEY or pass one: providers: { gemini: { type: 'gemini', apiKey: 'AIza…' } }.",
    );
  }
  return {
    id: valid.id ?? 'gemini',
    baseURL: (valid.baseURL ?? DEFAULT_GEMINI_BASE_URL).replace(/\/+$/, ''),
    headers: { ...(apiKey === undefined ? {} : { 'x-goog-api-key': apiKey }), ...extra },
    transport: transportOptionsOf(valid),
    fetchMediaUrls: valid.fetchMediaUrls === true ? {} : valid.fetchMediaUrls || undefined,
  };
}
