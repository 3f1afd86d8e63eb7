import { createOpenAIProvider } from '../../../src/providers/openai/index.js';
import { runAdapterContract } from '../../../src/testing/index.js';
import { startMockUpstream } from '../../helpers/mock-upstream.js';
import { chatContractReply } from './chat-upstream-replies.js';

runAdapterContract({
  name: 'openai',
  createAdapter: async (scenario) => {
    const upstream = await startMockUpstream();
    upstream.reply(chatContractReply(scenario));
    const adapter = createOpenAIProvider({ apiKey: 'sk-provider', baseURL: `${upstream.url}/v1` });
    return {
      adapter,
      model: 'gpt-4o',
      close: async () => {
        await adapter.close();
        await upstream.close();
      },
    };
  },
});

runAdapterContract({
  name: 'openai (azure deployment API)',
  createAdapter: async (scenario) => {
    const upstream = await startMockUpstream();
    upstream.reply(chatContractReply(scenario));
    const adapter = createOpenAIProvider({ apiKey: 'azure-key', azure: { endpoint: upstream.url, apiVersion: '2024-10-21' } });
    return {
      adapter,
      model: 'gpt-4o',
      close: async () => {
        await adapter.close();
        await upstream.close();
      },
    };
  },
});
