import OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const weatherTool: FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};
const timeTool: FunctionTool = {
  type: 'function',
  name: 'get_time',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  strict: true,
};

let running: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  running = await startGateway();
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
});
afterAll(() => running.close());

const functionCalls = (response: Response) =>
  response.output.flatMap((item) =>
    item.type === 'function_call' ? [{ call_id: item.call_id, name: item.name, arguments: item.arguments }] : [],
  );

describe('POST /v1/responses with the openai SDK', () => {
  it('should answer a plain request with output text, status and usage', async () => {
    const { data, response } = await client.responses.create({ model: 'mock', input: 'Hello', instructions: 'Be brief.' }).withResponse();
    expect(data.output_text).toBe(DEFAULT_MOCK_REPLY);
    expect(data.status).toBe('completed');
    expect(data.id).toMatch(/^resp_/);
    expect(data.instructions).toBe('Be brief.');
    expect(data.usage?.output_tokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
    expect(data.usage?.total_tokens).toBe((data.usage?.input_tokens ?? 0) + (data.usage?.output_tokens ?? 0));
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('should stream events in order with sequence numbers and a complete terminal response', async () => {
    const stream = await client.responses.create({ model: 'mock', input: 'Hello', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events[0]?.type).toBe('response.created');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(DEFAULT_MOCK_REPLY);
    const last = events.at(-1);
    expect(last?.type).toBe('response.completed');
    if (last?.type !== 'response.completed') throw new Error('expected response.completed');
    // The terminal event repeats the whole output (the SDK replaces its snapshot with it).
    const message = last.response.output.find((item) => item.type === 'message');
    expect(message?.type === 'message' && message.content[0]).toMatchObject({ type: 'output_text', text: DEFAULT_MOCK_REPLY });
    expect(last.response.usage?.output_tokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
  });

  it('should complete a function-call round trip', async () => {
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.responses.create({
      model: 'mock',
      input,
      tools: [weatherTool],
      tool_choice: 'required',
    });
    const calls = functionCalls(first);
    expect(calls).toEqual([{ call_id: 'call_mock_1_0', name: 'get_weather', arguments: '{"city":"example"}' }]);
    expect(first.status).toBe('completed');

    input.push(...(first.output as ResponseInputItem[]), {
      type: 'function_call_output',
      call_id: 'call_mock_1_0',
      output: 'sunny, 21 C',
    });
    const second = await client.responses.create({ model: 'mock', input, tools: [weatherTool] });
    expect(second.output_text).toBe('Tool results received. call_mock_1_0: sunny, 21 C');
    expect(functionCalls(second)).toEqual([]);
  });

  it('should stream parallel function calls that responses.stream assembles', async () => {
    const final = await client.responses
      .stream({ model: 'mock', input: 'Weather and time?', tools: [weatherTool, timeTool], tool_choice: 'required' })
      .finalResponse();
    expect(functionCalls(final)).toEqual([
      { call_id: 'call_mock_1_0', name: 'get_weather', arguments: '{"city":"example"}' },
      { call_id: 'call_mock_1_1', name: 'get_time', arguments: '{}' },
    ]);
    expect(final.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('should stream reasoning before the answer', async () => {
    const final = await client.responses
      .stream({ model: 'mock', input: 'Why?', reasoning: { effort: 'high', summary: 'auto' } })
      .finalResponse();
    expect(final.output[0]?.type).toBe('reasoning');
    expect(final.output_text).toBe(DEFAULT_MOCK_REPLY);
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  describe('folded stream equals the non-streamed answer', () => {
    const cases: Record<string, Parameters<OpenAI['responses']['create']>[0]> = {
      text: { model: 'mock', input: 'Hi' },
      'parallel function calls': { model: 'mock', input: 'Hi', tools: [weatherTool, timeTool], tool_choice: 'required' },
      'truncated text': { model: 'mock', input: 'Hi', max_output_tokens: 3 },
      reasoning: { model: 'mock', input: 'Hi', reasoning: { effort: 'low' } },
    };
    for (const [name, body] of Object.entries(cases)) {
      it(`should match for ${name}`, async () => {
        const plain = (await client.responses.create({ ...body, stream: false })) as Response;
        const folded = await client.responses
          .stream({ ...body, stream: true } as Parameters<OpenAI['responses']['stream']>[0])
          .finalResponse();
        const view = (response: Response) => ({
          text: response.output_text,
          calls: functionCalls(response),
          types: response.output.map((item) => item.type),
          status: response.status,
          incomplete: response.incomplete_details,
          usage: response.usage,
        });
        expect(view(folded)).toEqual(view(plain));
      });
    }
  });

  it('should report an incomplete response when the token budget cuts the answer', async () => {
    const response = await client.responses.create({ model: 'mock', input: 'Hi', max_output_tokens: 2 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details?.reason).toBe('max_output_tokens');
  });
});
