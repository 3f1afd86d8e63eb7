import { createOpenAIProvider } from '../../../src/providers/openai/index.js';
import { runMatrix } from '../../helpers/matrix.js';
import { chatMatrixUpstream } from './chat-upstream.js';

runMatrix(chatMatrixUpstream('openai', (upstreamUrl) => createOpenAIProvider({ apiKey: 'sk-openai-upstream-key', baseURL: `${upstreamUrl}/v1` })));

runMatrix(
  chatMatrixUpstream('azure-openai', (upstreamUrl) =>
    createOpenAIProvider({ apiKey: 'azure-upstream-key', azure: { endpoint: upstreamUrl, apiVersion: '2024-10-21' } }),
  ),
);
