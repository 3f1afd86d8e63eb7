import { configError } from '../../canonical/index.js';
import { openAIChatDialect } from '../../protocols/chat-completions/index.js';
import { hasHeader, parseProviderOptions, transportOptionsOf } from '../provider-options.js';
import type { ProviderAdapter } from '../types.js';
import { resolveAzure } from './azure.js';
import { openAIModelCapabilities } from './capabilities.js';
import { createChatAdapter } from './chat-adapter.js';
import { openAIProviderOptionsSchema, type OpenAIProviderOptions } from './options.js';

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
  const valid = parseProviderOptions(
    openAIProviderOptionsSchema,
    options,
    'OpenAI provider option',
    'createOpenAIProvider({ apiKey: process.env.OPENAI_API_KEY })',
  );
  const { azure } = valid;
  const apiKey = valid.apiKey ?? (azure ? process.env.AZURE_OPENAI_API_KEY : process.env.OPENAI_API_KEY);
  if (apiKey === undefined && !hasHeader(valid.headers, 'authorization')) {
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
    ...(valid.organization === undefined ? {} : { 'openai-organization': valid.organization }),
    ...(valid.project === undefined ? {} : { 'openai-project': valid.project }),
    ...valid.headers,
  };
  return createChatAdapter({
    id: valid.id ?? (azure ? 'azure-openai' : 'openai'),
    upstream: {
      baseURL: resolvedAzure?.baseURL ?? valid.baseURL ?? 'https://api.openai.com/v1',
      headers,
      ...transportOptionsOf(valid),
    },
    dialect: resolvedAzure?.dialect ?? openAIChatDialect,
    ...(resolvedAzure ? { target: resolvedAzure.target } : {}),
    // Azure model ids are deployment names: nothing can be read from them.
    capabilities: resolvedAzure ? () => ({ providerTools: ['chat'] }) : openAIModelCapabilities,
    ...(resolvedAzure ? {} : { modelCatalog: 'openai', relay: true }),
  });
}
