import { createAnthropicProvider } from '../../../src/providers/anthropic/index.js';
import { runAdapterContract } from '../../../src/testing/index.js';
import { startMockUpstream, type MockReply } from '../../helpers/mock-upstream.js';
import { sseFixture } from '../../helpers/fixtures.js';

const textJson = {
  id: 'msg_text',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [{ type: 'text', text: 'Hello!' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 25, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
};

const toolJson = {
  ...textJson,
  id: 'msg_tool',
  content: [{ type: 'tool_use', id: 'toolu_01T1', name: 'get_weather', input: { city: 'Paris' } }],
  stop_reason: 'tool_use',
};

const isStream = (body: unknown) => (body as { stream?: boolean }).stream === true;

runAdapterContract({
  name: 'anthropic',
  createAdapter: async (scenario) => {
    const upstream = await startMockUpstream();
    const replies: Record<typeof scenario, (body: unknown) => MockReply> = {
      // The text fixture streams "Hello!" split inside its bytes.
      text: (body) => (isStream(body) ? { sse: sseFixture('messages', 'upstream-text'), chunkBytes: 1 } : { json: textJson }),
      'tool-call': (body) => (isStream(body) ? { sse: sseFixture('messages', 'upstream-tool-call'), chunkBytes: 7 } : { json: toolJson }),
      'rate-limit': () => ({
        status: 429,
        headers: { 'retry-after': '3' },
        json: {
          type: 'error',
          error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
        },
      }),
      'bad-request': () => ({
        status: 400,
        json: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: at least one message is required' } },
      }),
      hang: () => ({ hang: true, sse: `${sseFixture('messages', 'upstream-text').split('\n\n').slice(0, 2).join('\n\n')}\n\n` }),
    };
    upstream.reply((request) => replies[scenario](request.body));
    return {
      adapter: createAnthropicProvider({ apiKey: 'sk-ant-test', baseURL: upstream.url }),
      model: 'claude-x',
      close: () => upstream.close(),
    };
  },
});
