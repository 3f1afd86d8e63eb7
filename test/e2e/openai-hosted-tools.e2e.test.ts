import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const searchCall = {
  id: 'ws_1',
  type: 'web_search_call',
  status: 'completed',
  action: { type: 'search', query: 'paris weather' },
};
const message = {
  id: 'msg_1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Sunny in Paris.', annotations: [], logprobs: [] }],
};
const response = (status: string, output: unknown[], usage: unknown) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1741476542,
  status,
  model: 'gpt-5',
  output,
  error: null,
  incomplete_details: null,
  usage,
});

/** An OpenAI Responses stream in which the model ran its hosted web search, then answered. */
const upstreamStream = sseText(
  [
    { type: 'response.created', response: response('in_progress', [], null) },
    { type: 'response.output_item.added', output_index: 0, item: { ...searchCall, status: 'in_progress' } },
    { type: 'response.web_search_call.in_progress', output_index: 0, item_id: 'ws_1' },
    { type: 'response.web_search_call.searching', output_index: 0, item_id: 'ws_1' },
    { type: 'response.web_search_call.completed', output_index: 0, item_id: 'ws_1' },
    { type: 'response.output_item.done', output_index: 0, item: searchCall },
    { type: 'response.output_item.added', output_index: 1, item: { ...message, status: 'in_progress', content: [] } },
    {
      type: 'response.content_part.added',
      output_index: 1,
      item_id: 'msg_1',
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    },
    { type: 'response.output_text.delta', output_index: 1, item_id: 'msg_1', content_index: 0, delta: 'Sunny in Paris.' },
    { type: 'response.output_text.done', output_index: 1, item_id: 'msg_1', content_index: 0, text: 'Sunny in Paris.' },
    { type: 'response.output_item.done', output_index: 1, item: message },
    {
      type: 'response.completed',
      response: response('completed', [searchCall, message], { input_tokens: 20, output_tokens: 5, total_tokens: 25 }),
    },
  ].map((data, index) => ({ event: data.type, data: { ...data, sequence_number: index } })),
);

let upstream: MockUpstream;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    providers: { openai: createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [{ id: 'gpt', provider: 'openai', upstreamModel: 'gpt-5' }],
    // The operator pays for web search (the request policy strips it by default).
    requestPolicy: { tools: { web_search: 'allow' } },
  });
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});

describe('OpenAI hosted tools through the gateway', () => {
  it('should stream hosted-tool items (web_search_call) to a Responses client as OpenAI sent them', async () => {
    upstream.reply({ sse: upstreamStream, chunkBytes: 13 });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const final = await client.responses
      .stream({ model: 'gpt', input: 'Weather in Paris?', tools: [{ type: 'web_search' }] })
      .finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(final.output[0]).toMatchObject(searchCall);
    expect(final.output_text).toBe('Sunny in Paris.');
    expect((upstream.requests.at(-1)?.body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search' }]);
  });
});
