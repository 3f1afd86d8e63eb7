import { z } from 'zod';
import { configError, configIssueError } from '../../canonical/index.js';
import type { MediaFetchOptions } from './inline-media-urls.js';

/** Options of the Gemini provider (`type: 'gemini'`). */
export interface GeminiProviderOptions {
  /** Gemini API key (AI Studio), sent as `x-goog-api-key`. Default: `process.env.GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** API base including the version. Default `https://generativelanguage.googleapis.com/v1beta` (thinking, thought signatures and `parametersJsonSchema` need v1beta). */
  baseURL?: string;
  /** Extra headers on every call; they win over the defaults (e.g. a proxy's own auth). */
  headers?: Record<string, string>;
  /** Longest wait for the answer to start, and longest silence inside a stream, in ms. Default 600000 (10 min). */
  timeoutMs?: number;
  /** Most connections open to the upstream at once; each call or stream holds one. Default: no limit. */
  maxConnections?: number;
  /** Largest answer read from the upstream (a whole answer, or one stream event), in bytes; past it the call fails with 502. Default 67108864 (64 MiB). */
  maxAnswerBytes?: number;
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
  apiKey: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxConnections: z.number().int().positive().optional(),
  maxAnswerBytes: z.number().int().positive().optional(),
  id: z.string().min(1).optional(),
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
  timeoutMs: number;
  /** Set when media URLs are downloaded and inlined. */
  fetchMediaUrls: MediaFetchOptions | undefined;
}

const hasHeader = (headers: Record<string, string>, name: string): boolean =>
  Object.keys(headers).some((key) => key.toLowerCase() === name);

/** Validates the options once into a new object (the caller's is never changed). Throws a coded config error. */
export function resolveGeminiOptions(options: GeminiProviderOptions, env: NodeJS.ProcessEnv = process.env): ResolvedGeminiOptions {
  const parsed = geminiProviderOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const example = 'createGeminiProvider({ apiKey: process.env.GEMINI_API_KEY })';
    throw configIssueError('CONFIG_PROVIDER_INVALID', 'Gemini provider option', parsed.error.issues[0], example);
  }
  const valid = parsed.data;
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
    timeoutMs: valid.timeoutMs ?? 600_000,
    fetchMediaUrls: valid.fetchMediaUrls === true ? {} : valid.fetchMediaUrls || undefined,
  };
}
