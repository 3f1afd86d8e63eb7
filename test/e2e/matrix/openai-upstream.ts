import { createOpenAIProvider } from '../../../src/providers/openai/index.js';
import { chatMatrixUpstream } from './chat-upstream.js';

export const openaiUpstream = chatMatrixUpstream('openai', (upstreamUrl) =>
  createOpenAIProvider({ apiKey: 'sk-openai-upstream-key', baseURL: `${upstreamUrl}/v1` }),
);

export const azureOpenAIUpstream = chatMatrixUpstream(
  'azure-openai',
  (upstreamUrl) => createOpenAIProvider({ apiKey: 'azure-upstream-key', azure: { endpoint: upstreamUrl, apiVersion: '2024-10-21' } }),
  { label: 'openai (Azure)' },
);
