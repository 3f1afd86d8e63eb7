import { configError, configIssueError } from '../../canonical/index.js';
import { openAIChatDialect } from '../../protocols/chat-completions/index.js';
import type { ProviderAdapter } from '../types.js';
import { resolveAzure } from './azure.js';
import { openAIModelCapabilities } from './capabilities.js';
import { createChatAdapter } from './chat-adapter.js';
import { openAIProviderOptionsSchema, type OpenAIProviderOptions } from './options.js';

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
    throw configIssueError('CONFIG_PROVIDER_INVALID', 'OpenAI provider option', parsed.error.issues[0], 'createOpenAIProvider({ apiKey: process.env.OPENAI_API_KEY })');
  }
  const { azure } = options;
  const apiKey = options.apiKey ?? (azure ? process.env.AZURE_OPENAI_API_KEY : process.env.OPENAI_API_KEY);
  if (apiKey === undefined && !hasAuthorization(options.headers)) {
    const variable = azure ? 'AZURE_OPENAI_API_KEY' : 'OPENAI_API_KEY';
    throw configError(
      'CONFIG_PROVIDER_API_KEY_MISSING',
      `The ${azure ? 'Azure ' : ''}OpenAI provider needs a key: { apiKey: process.env.${variable} }, or set ${variable}.`,
    );
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
      ...(options.maxAnswerBytes === undefined ? {} : { maxAnswerBytes: options.maxAnswerBytes }),
    },
    dialect: resolvedAzure?.dialect ?? openAIChatDialect,
    ...(resolvedAzure ? { target: resolvedAzure.target } : {}),
    // Azure model ids are deployment names: nothing can be read from them.
    capabilities: resolvedAzure ? () => ({ providerTools: ['chat'] }) : openAIModelCapabilities,
    ...(resolvedAzure ? {} : { modelCatalog: 'openai', relay: true }),
  });
}
