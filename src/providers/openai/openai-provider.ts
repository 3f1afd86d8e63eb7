import { GatewayError } from '../../canonical/index.js';
import { openAIChatDialect } from '../../protocols/chat-completions/index.js';
import type { ProviderAdapter } from '../types.js';
import { resolveAzure, type AzureOpenAIOptions } from './azure.js';
import { openAIModelCapabilities } from './capabilities.js';
import { createChatAdapter } from './chat-adapter.js';
import { openAIProviderOptionsSchema } from './options-schema.js';

/** Options of `createOpenAIProvider`. */
export interface OpenAIProviderOptions {
  /** The provider's key. Default: `OPENAI_API_KEY` (with `azure`: `AZURE_OPENAI_API_KEY`). */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`. Not with `azure`. */
  baseURL?: string;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** Extra headers on every call (e.g. `Authorization: Bearer <Entra token>` for Azure without a key). */
  headers?: Record<string, string>;
  /** Longest wait, in ms, for the answer to start and between two pieces of it. Default 10 min / 5 min. */
  timeoutMs?: number;
  /** Most connections open to the upstream at once; each call or stream holds one. Default: no limit. */
  maxConnections?: number;
  /** Provider id in logs. Default `openai`, or `azure-openai` with `azure`. */
  id?: string;
  /** Call Azure OpenAI instead of OpenAI. */
  azure?: AzureOpenAIOptions;
}

function configError(message: string): GatewayError {
  return new GatewayError({ kind: 'internal', code: 'CONFIG_PROVIDER_INVALID', message });
}

function hasAuthorization(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}

/**
 * The OpenAI Chat Completions provider (`POST {baseURL}/chat/completions`), or Azure OpenAI
 * with `azure`. Speaks `chat`, so Chat callers' extra fields (`n`, `logprobs`, …) reach OpenAI.
 * Streams always ask for usage; `max_completion_tokens` carries the output cap.
 *
 * @example
 * createOpenAIProvider({ apiKey: process.env.OPENAI_API_KEY });
 * createOpenAIProvider({ apiKey: process.env.AZURE_OPENAI_API_KEY, azure: { resource: 'my-resource' } });
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): ProviderAdapter & { close(): Promise<void> } {
  const parsed = openAIProviderOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw configError(`Invalid OpenAI provider option '${issue?.path.join('.') ?? ''}': ${issue?.message ?? 'invalid value'}.`);
  }
  const { azure } = options;
  const apiKey = options.apiKey ?? (azure ? process.env.AZURE_OPENAI_API_KEY : process.env.OPENAI_API_KEY);
  if (apiKey === undefined && !hasAuthorization(options.headers)) {
    const variable = azure ? 'AZURE_OPENAI_API_KEY' : 'OPENAI_API_KEY';
    throw configError(`The ${azure ? 'Azure ' : ''}OpenAI provider needs a key: { apiKey: process.env.${variable} }, or set ${variable}.`);
  }
  const resolvedAzure = azure === undefined ? undefined : resolveAzure(azure);
  const auth: Record<string, string> =
    apiKey === undefined ? {} : resolvedAzure ? { 'api-key': apiKey } : { authorization: `Bearer ${apiKey}` };
  const headers: Record<string, string> = {
    ...auth,
    ...(options.organization === undefined ? {} : { 'openai-organization': options.organization }),
    ...(options.project === undefined ? {} : { 'openai-project': options.project }),
    ...options.headers,
  };
  return createChatAdapter({
    id: options.id ?? (azure ? 'azure-openai' : 'openai'),
    upstream: {
      baseURL: resolvedAzure?.baseURL ?? options.baseURL ?? 'https://api.openai.com/v1',
      headers,
      ...(options.timeoutMs === undefined ? {} : { headersTimeoutMs: options.timeoutMs, bodyTimeoutMs: options.timeoutMs }),
      ...(options.maxConnections === undefined ? {} : { connections: options.maxConnections }),
    },
    dialect: resolvedAzure?.dialect ?? openAIChatDialect,
    ...(resolvedAzure ? { target: resolvedAzure.target } : {}),
    // Azure model ids are deployment names: nothing can be read from them.
    capabilities: resolvedAzure ? () => ({ providerTools: ['chat'] }) : openAIModelCapabilities,
  });
}
