import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const searchResult = [
  { type: 'web_search_result', url: 'https://example.com/paris', title: 'Paris weather', encrypted_content: 'Eo8B', page_age: null },
];

/** An Anthropic stream in which the model used its server-side web search, then answered. */
const upstreamStream = sseText(
  [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "paris weather"}' } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: searchResult },
    },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Sunny in Paris.' } },
    { type: 'content_block_stop', index: 2 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 30, server_tool_use: { web_search_requests: 1 } },
    },
    { type: 'message_stop' },
  ].map((data) => ({ event: data.type, data })),
);

let upstream: MockUpstream;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    providers: { anthropic: createAnthropicProvider({ apiKey: 'upstream-key', baseURL: upstream.url }) },
    models: [
      { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-x' },
      { id: 'claude-strict', provider: 'anthropic', upstreamModel: 'claude-x', adapt: false },
    ],
    // The operator pays for web search (the request policy strips it by default).
    requestPolicy: { tools: { web_search: 'allow' } },
  });
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});

const webSearch = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 3 };

describe('Anthropic server tools through the gateway', () => {
  it('should stream server-tool blocks to a Messages client exactly as Anthropic sent them', async () => {
    upstream.reply({ sse: upstreamStream, chunkBytes: 11 });
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const message = await client.messages
      .stream({ model: 'claude', max_tokens: 1024, tools: [webSearch], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
      .finalMessage();
    expect(message.content).toEqual([
      expect.objectContaining({ type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'paris weather' } }),
      expect.objectContaining({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: searchResult }),
      expect.objectContaining({ type: 'text', text: 'Sunny in Paris.' }),
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect((upstream.requests.at(-1)?.body as { tools: unknown[] }).tools).toEqual([webSearch]);
  });

  it("should refuse an OpenAI client's hosted web_search on a model with adapt: false, naming the tool", async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const error = await client.responses
      .create({ model: 'claude-strict', input: 'x', tools: [{ type: 'web_search' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toContain('web_search');
  });
});
