import { createOpenAIResponsesProvider } from '../../../src/providers/openai-responses/index.js';
import { runAdapterContract, type ContractScenario } from '../../../src/testing/index.js';
import { startMockUpstream, type MockReply } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

const callBody = {
  ...jsonFixture('responses', 'upstream-response'),
  output: [
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
  ],
};

/** How the mock OpenAI answers each contract scenario, streaming or not. */
function replyFor(scenario: ContractScenario, stream: boolean): MockReply {
  switch (scenario) {
    case 'text':
      // The streamed text must equal the non-streamed one: both say "Bonjour — café ☀️!".
      return stream
        ? { sse: sseFixture('responses', 'upstream-text'), chunkBytes: 1 }
        : {
            json: {
              ...jsonFixture('responses', 'upstream-response'),
              output: [
                {
                  type: 'message',
                  id: 'msg_1',
                  role: 'assistant',
                  content: [{ type: 'output_text', text: 'Bonjour — café ☀️!', annotations: [] }],
                },
              ],
            },
          };
    case 'tool-call':
      return stream ? { sse: sseFixture('responses', 'upstream-tool-call'), chunkBytes: 7 } : { json: callBody };
    case 'rate-limit':
      return {
        status: 429,
        headers: { 'retry-after': '3' },
        json: { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
      };
    case 'bad-request':
      return { status: 400, json: jsonFixture('responses', 'upstream-error') };
    case 'hang':
      return { hang: true, sse: `${sseFixture('responses', 'upstream-text').split('\n\n').slice(0, 4).join('\n\n')}\n\n` };
  }
}

runAdapterContract({
  name: 'openai-responses',
  async createAdapter(scenario) {
    const upstream = await startMockUpstream();
    upstream.reply((request) => replyFor(scenario, (request.body as { stream?: boolean }).stream === true));
    const adapter = createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` });
    return { adapter, model: 'gpt-5', close: () => upstream.close() };
  },
});
