import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** What Codex CLI sends: a namespace of functions, a plain function and the hosted web_search. */
const codexTools = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Agents',
    tools: [{ type: 'function', name: 'spawn', description: 'Start an agent', parameters: { type: 'object', properties: {} } }],
  },
  { type: 'web_search' },
];

const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'multi_agent_v1__spawn', input: { task: 'x' } };
const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [toolUse],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
};
const stream = sseText(
  [
    { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
    { type: 'content_block_start', index: 0, content_block: { ...toolUse, input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"task":"x"}' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ].map((data) => ({ event: data.type, data })),
);

let upstream: MockUpstream;
let running: RunningGateway;
let client: OpenAI;
beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    providers: { anthropic: createAnthropicProvider({ apiKey: 'upstream-key', baseURL: upstream.url }) },
    models: [
      { id: 'claude-for-codex', provider: 'anthropic', upstreamModel: 'claude-x', hostedTools: 'omit' },
      { id: 'claude-strict', provider: 'anthropic', upstreamModel: 'claude-x', adapt: false },
    ],
  });
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const body = (model: string) => ({ model, input: 'Spawn an agent', tools: codexTools as OpenAI.Responses.Tool[] });

describe('Codex-style tools on an Anthropic model', () => {
  it('should send namespaced functions flattened and give the call its namespace back', async () => {
    upstream.reply({ json: message });
    const response = await client.responses.create(body('claude-for-codex'));
    const sent = upstream.requests[0]?.body as { tools: Array<{ name: string }> };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['exec_command', 'multi_agent_v1__spawn']);
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'toolu_01',
        name: 'spawn',
        namespace: 'multi_agent_v1',
        arguments: '{"task":"x"}',
      }),
    ]);
  });

  it('should do the same in a stream', async () => {
    upstream.reply({ sse: stream });
    const final = await client.responses.stream(body('claude-for-codex')).finalResponse();
    expect(final.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'spawn', namespace: 'multi_agent_v1' })]);
  });

  it('should refuse web_search, naming it, on a model with adapt: false that does not omit hosted tools', async () => {
    const error = await client.responses.create(body('claude-strict')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((error as Error).message)).toContain("'web_search' tool");
    expect(upstream.requests).toHaveLength(0);
  });
});
