import { openAIChatDialect, type ChatDialect } from '../../protocols/chat-completions/index.js';
import type { ChatTarget } from './chat-adapter.js';

/**
 * Azure OpenAI, as an option of the OpenAI provider.
 *
 * Without `apiVersion` the **v1 API** is used: `{endpoint}/openai/v1/chat/completions`, the body
 * `model` being the deployment name. With `apiVersion` the **deployment API** is used:
 * `{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={apiVersion}`.
 * Either way the key goes in the `api-key` header.
 *
 * @example
 * { azure: { resource: 'my-resource', deployments: { 'gpt-4o': 'prod-gpt4o' } } }
 * { azure: { endpoint: 'https://my-resource.openai.azure.com', apiVersion: '2024-10-21' } }
 */
export interface AzureOpenAIOptions {
  /** The resource name: the endpoint is `https://{resource}.openai.azure.com`. Give this or `endpoint`. */
  resource?: string;
  /** The endpoint, e.g. `https://my-resource.openai.azure.com` (custom domains, sovereign clouds). */
  endpoint?: string;
  /** `YYYY-MM-DD[-preview]` selects the deployment API with that version; absent: the v1 API. */
  apiVersion?: string;
  /** Upstream model id → deployment name. Default: the model id is the deployment name. */
  deployments?: Record<string, string>;
}

/** The resolved Azure target: base URL, how a model id becomes a call, and the dialect. */
export interface ResolvedAzure {
  baseURL: string;
  target(model: string): ChatTarget;
  dialect: ChatDialect;
}

/**
 * `stream_options` and `max_completion_tokens` need api-version 2024-09-01-preview or later on
 * the deployment API; older versions 400 on both.
 */
function isBefore202409(apiVersion: string): boolean {
  return apiVersion.slice(0, 10) < '2024-09-01';
}

export function resolveAzure(azure: AzureOpenAIOptions): ResolvedAzure {
  const endpoint = (azure.endpoint ?? `https://${azure.resource ?? ''}.openai.azure.com`).replace(/\/+$/, '');
  const deployment = (model: string) => azure.deployments?.[model] ?? model;
  const { apiVersion } = azure;
  if (apiVersion === undefined) {
    return {
      baseURL: `${endpoint}/openai/v1`,
      target: (model) => ({ path: '/chat/completions', model: deployment(model) }),
      dialect: openAIChatDialect,
    };
  }
  const old = isBefore202409(apiVersion);
  return {
    baseURL: `${endpoint}/openai`,
    target: (model) => ({
      path: `/deployments/${encodeURIComponent(deployment(model))}/chat/completions`,
      // Ignored by Azure (the deployment decides), kept for logs.
      model,
      query: { 'api-version': apiVersion },
    }),
    dialect: old ? { ...openAIChatDialect, maxTokensField: 'max_tokens', streamUsage: 'none' } : openAIChatDialect,
  };
}
