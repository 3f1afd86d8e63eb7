import { z } from 'zod';
import { configError } from '../../canonical/index.js';
import { parseProviderOptions, providerOptionsShape, transportOptionsOf, type ProviderOptions } from '../provider-options.js';

/** Options of `createOpenAIResponsesProvider`. */
export interface OpenAIResponsesProviderOptions extends ProviderOptions {
  /** The OpenAI key sent upstream as `Authorization: Bearer …`. Default: `process.env.OPENAI_API_KEY`. */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`; `/responses` is appended. */
  baseURL?: string;
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
  /** What the transport takes: timeouts, connections, answer size. */
  transport: ReturnType<typeof transportOptionsOf>;
}

const defaultBaseURL = 'https://api.openai.com/v1';

/** Options validated once (a bad one throws CONFIG_PROVIDER_INVALID), with the key and default base URL filled in; throws CONFIG_PROVIDER_API_KEY_MISSING without a key for OpenAI itself. */
export function resolveOpenAIResponsesOptions(options: OpenAIResponsesProviderOptions): ResolvedOpenAIResponsesOptions {
  const example = 'createOpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY })';
  const valid = parseProviderOptions(openAIResponsesProviderOptionsSchema, options, 'OpenAI Responses provider option', example);
  const apiKey = valid.apiKey ?? process.env.OPENAI_API_KEY;
  const baseURL = valid.baseURL ?? defaultBaseURL;
  if ((apiKey === undefined || apiKey === '') && baseURL === defaultBaseURL) {
    throw configError(
      'CONFIG_PROVIDER_API_KEY_MISSING',
      'The openai-responses provider needs an OpenAI API key: set OPENAI_API_KEY or pass it, e.g. createOpenAIResponsesProvider({ apiKey: process.env.OPENAI_API_KEY }).',
    );
  }
  return {
    id: valid.id ?? 'openai-responses',
    baseURL,
    headers: {
      ...(apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
      ...(valid.organization === undefined ? {} : { 'openai-organization': valid.organization }),
      ...(valid.project === undefined ? {} : { 'openai-project': valid.project }),
      ...valid.headers,
    },
    transport: transportOptionsOf(valid),
  };
}

/** The configuration form of `OpenAIResponsesProviderOptions` (strict: unknown keys are errors). */
export const openAIResponsesProviderOptionsSchema = z.strictObject({
  ...providerOptionsShape,
  organization: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
});
