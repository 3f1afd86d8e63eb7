import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};
const timeTool = { name: 'get_time', input_schema: { type: 'object' as const, properties: {} } };

/** The parts of a Message both SDK lines agree on. */
interface MessageView {
  content: Array<Record<string, unknown> & { type: string }>;
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: { input_tokens: number; output_tokens: number };
}

/** Both SDK lines behind one small surface: 1.x sends Bearer + 2026-10-21, 0.x x-api-key + 2023-06-01. */
interface MessagesClient {
  create(body: Record<string, unknown>): Promise<MessageView & { _request_id?: string | null }>;
  iterate(body: Record<string, unknown>): Promise<Array<{ type: string } & Record<string, unknown>>>;
  final(body: Record<string, unknown>): Promise<MessageView>;
}

function wrap(sdk: Anthropic | Anthropic0): MessagesClient {
  const messages = sdk.messages as unknown as {
    create(body: unknown): Promise<unknown> & { withResponse(): Promise<unknown> };
    stream(body: unknown): { finalMessage(): Promise<unknown> };
  };
  return {
    create: async (body) => (await messages.create({ ...body, stream: false })) as MessageView,
    iterate: async (body) => {
      const stream = (await messages.create({ ...body, stream: true })) as AsyncIterable<{ type: string }>;
      const events = [];
      for await (const event of stream) events.push(event as { type: string } & Record<string, unknown>);
      return events;
    },
    final: async (body) => (await messages.stream(body).finalMessage()) as MessageView,
  };
}

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway();
});
afterAll(() => running.close());

const lines = {
  '@anthropic-ai/sdk 1.x': () => new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 }),
  '@anthropic-ai/sdk 0.x': () => new Anthropic0({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 }),
};

for (const [line, makeSdk] of Object.entries(lines)) {
  describe(`POST /v1/messages with ${line}`, () => {
    let client: MessagesClient;
    beforeAll(() => {
      client = wrap(makeSdk());
    });

    it('should answer a plain request with text, stop reason, usage and a request id', async () => {
      const message = await client.create({
        model: 'mock',
        max_tokens: 1024,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello' }],
      });
      expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: DEFAULT_MOCK_REPLY })]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.output_tokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message._request_id).toMatch(/^req_/);
    });

    it('should stream named events in order', async () => {
      const events = await client.iterate({ model: 'mock', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] });
      const types = events.map((event) => event.type);
      expect(types[0]).toBe('message_start');
      expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
      const text = events
        .flatMap((event) => {
          const delta = event.delta as { type?: string; text?: string } | undefined;
          return event.type === 'content_block_delta' && delta?.type === 'text_delta' ? [delta.text ?? ''] : [];
        })
        .join('');
      expect(text).toBe(DEFAULT_MOCK_REPLY);
      expect(types.filter((type) => type === 'content_block_delta').length).toBeGreaterThan(1);
    });

    it('should complete a tool-use round trip', async () => {
      const question = { role: 'user', content: 'Weather in Paris?' };
      const first = await client.create({
        model: 'mock',
        max_tokens: 1024,
        messages: [question],
        tools: [weatherTool],
        tool_choice: { type: 'any' },
      });
      expect(first.stop_reason).toBe('tool_use');
      const toolUse = first.content.find((block) => block.type === 'tool_use');
      expect(toolUse).toMatchObject({ id: 'call_mock_1_0', name: 'get_weather', input: { city: 'example' } });

      const second = await client.create({
        model: 'mock',
        max_tokens: 1024,
        tools: [weatherTool],
        messages: [
          question,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_mock_1_0', content: 'sunny, 21 C' }] },
        ],
      });
      expect(second.content).toEqual([
        expect.objectContaining({ type: 'text', text: 'Tool results received. call_mock_1_0: sunny, 21 C' }),
      ]);
      expect(second.stop_reason).toBe('end_turn');
    });

    it('should stream parallel tool use and thinking that finalMessage() assembles', async () => {
      const message = await client.final({
        model: 'mock',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [{ role: 'user', content: 'Weather and time?' }],
        tools: [weatherTool, timeTool],
        tool_choice: { type: 'any' },
      });
      expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
      expect(message.content[0]?.signature).toMatch(/^mock-signature-/);
      expect(message.content.slice(1)).toEqual([
        expect.objectContaining({ id: 'call_mock_1_0', name: 'get_weather', input: { city: 'example' } }),
        expect.objectContaining({ id: 'call_mock_1_1', name: 'get_time', input: {} }),
      ]);
      expect(message.stop_reason).toBe('tool_use');
    });

    describe('folded stream equals the non-streamed answer', () => {
      const cases: Record<string, Record<string, unknown>> = {
        text: { model: 'mock', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] },
        'parallel tool use': {
          model: 'mock',
          max_tokens: 1024,
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [weatherTool, timeTool],
          tool_choice: { type: 'any' },
        },
        'max tokens': { model: 'mock', max_tokens: 3, messages: [{ role: 'user', content: 'Hi' }] },
        'stop sequence': { model: 'mock', max_tokens: 1024, stop_sequences: ['mock'], messages: [{ role: 'user', content: 'Hi' }] },
        thinking: {
          model: 'mock',
          max_tokens: 4096,
          thinking: { type: 'enabled', budget_tokens: 1024 },
          messages: [{ role: 'user', content: 'Hi' }],
        },
      };
      for (const [name, body] of Object.entries(cases)) {
        it(`should match for ${name}`, async () => {
          const plain = await client.create(body);
          const folded = await client.final(body);
          const view = (message: MessageView) => ({
            content: message.content.map((block) => ({ ...block, citations: undefined })),
            stop_reason: message.stop_reason,
            stop_sequence: message.stop_sequence,
            input: message.usage.input_tokens,
            output: message.usage.output_tokens,
          });
          expect(view(folded)).toEqual(view(plain));
        });
      }
    });
  });
}
