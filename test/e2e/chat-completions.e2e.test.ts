import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const timeTool: ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_time', parameters: { type: 'object', properties: {} } },
};

let running: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  running = await startGateway();
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
});
afterAll(() => running.close());

describe('POST /v1/chat/completions with the openai SDK', () => {
  it('should answer a plain request with text, finish reason, usage and a request id', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
    const choice = data.choices[0];
    expect(choice?.message.content).toBe(DEFAULT_MOCK_REPLY);
    expect(choice?.message.role).toBe('assistant');
    expect(choice?.finish_reason).toBe('stop');
    expect(data.model).toBe('mock');
    expect(data.usage?.completion_tokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
    expect(data.usage?.total_tokens).toBe((data.usage?.prompt_tokens ?? 0) + (data.usage?.completion_tokens ?? 0));
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('should stream text in several chunks with a usage chunk when include_usage is set', async () => {
    const stream = await client.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(DEFAULT_MOCK_REPLY);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(1);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.completion_tokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
  });

  it('should send no usage when include_usage is not set', async () => {
    const stream = await client.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('should complete a tool-call round trip', async () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({
      model: 'mock',
      messages,
      tools: [weatherTool],
      tool_choice: 'required',
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type).toBe('function');
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(call.id).toBe('call_mock_1_0');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'example' });

    messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 21 C' });
    const second = await client.chat.completions.create({ model: 'mock', messages, tools: [weatherTool] });
    expect(second.choices[0]?.message.content).toBe(`Tool results received. ${call.id}: sunny, 21 C`);
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it('should stream parallel tool calls that the stream helper assembles', async () => {
    const final = await client.chat.completions
      .stream({
        model: 'mock',
        messages: [{ role: 'user', content: 'Weather and time?' }],
        tools: [weatherTool, timeTool],
        tool_choice: 'required',
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => call.id)).toEqual(['call_mock_1_0', 'call_mock_1_1']);
    expect(calls.map((call) => (call.type === 'function' ? [call.function.name, call.function.arguments] : []))).toEqual([
      ['get_weather', '{"city":"example"}'],
      ['get_time', '{}'],
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);
  });

  describe('folded stream equals the non-streamed answer', () => {
    const cases: Record<string, Parameters<OpenAI['chat']['completions']['create']>[0]> = {
      text: { model: 'mock', messages: [{ role: 'user', content: 'Hi' }] },
      'parallel tool calls': {
        model: 'mock',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [weatherTool, timeTool],
        tool_choice: 'required',
      },
      'truncated text': { model: 'mock', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 3 },
      'stop sequence': { model: 'mock', messages: [{ role: 'user', content: 'Hi' }], stop: ['mock'] },
    };
    for (const [name, body] of Object.entries(cases)) {
      it(`should match for ${name}`, async () => {
        const plain = await client.chat.completions.create({ ...body, stream: false });
        const folded = await client.chat.completions
          .stream({ ...body, stream: true, stream_options: { include_usage: true } })
          .finalChatCompletion();
        const view = (completion: typeof plain) => ({
          content: completion.choices[0]?.message.content ?? null,
          toolCalls: completion.choices[0]?.message.tool_calls?.map((call) =>
            call.type === 'function' ? { id: call.id, name: call.function.name, arguments: call.function.arguments } : call,
          ),
          finish: completion.choices[0]?.finish_reason,
          usage: {
            prompt: completion.usage?.prompt_tokens,
            completion: completion.usage?.completion_tokens,
            total: completion.usage?.total_tokens,
          },
        });
        expect(view(folded)).toEqual(view(plain));
      });
    }
  });

  it('should report length when the token budget cuts the answer', async () => {
    const completion = await client.chat.completions.create({
      model: 'mock',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 2,
    });
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.choices[0]?.message.content).toBe(DEFAULT_MOCK_REPLY.slice(0, 8));
  });
});
