import { z } from 'zod';
import { configError } from '../../canonical/index.js';

/** Options of `createOpenAIResponsesProvider`. */
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
  /** Largest answer read from the upstream (a whole answer, or one stream event), in bytes; past it the call fails with 502. Default 67108864 (64 MiB). */
  maxAnswerBytes?: number;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** Provider id used in logs. Default `openai-responses`. */
  id?: string;
}

export interface ResolvedOpenAIResponsesOptions {
  id: string;
  baseURL: string;
  headers: Record<string, string>;
  timeoutMs: number | undefined;
}

const defaultBaseURL = 'https://api.openai.com/v1';

/** Validated-once options with the key and default base URL filled in; throws CONFIG_PROVIDER_API_KEY_MISSING without a key for OpenAI itself. */
export function resolveOpenAIResponsesOptions(options: OpenAIResponsesProviderOptions): ResolvedOpenAIResponsesOptions {
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  const baseURL = options.baseURL ?? defaultBaseURL;
  if ((apiKey === undefined || apiKey === '') && baseURL === defaultBaseURL) {
    throw configError(
      'CONFIG_PROVIDER_API_KEY_MISSING',
      'The openai-responses provider needs an OpenAI API key: set OPENAI_API_KEY or pass it, e.g. createOpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY }).',
    );
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

/** The configuration form of `OpenAIResponsesProviderOptions` (strict: unknown keys are errors). */
export const openAIResponsesProviderOptionsSchema = z.strictObject({
  apiKey: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxConnections: z.number().int().positive().optional(),
  maxAnswerBytes: z.number().int().positive().optional(),
  organization: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
});
