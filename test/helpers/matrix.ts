import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from './mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from './start-gateway.js';

/** What every matrix upstream answers, in canonical terms. */
export const MATRIX = {
  system: 'You are a weather bot.',
  question: 'What is the weather in Paris?',
  /** Multi-byte on purpose: split SSE must not break it. */
  text: 'Sunny over Paris — 21 °C ☀️',
  afterToolText: 'It is sunny, 21 °C.',
  toolName: 'get_weather',
  toolArguments: { city: 'Paris' },
  toolResult: 'sunny, 21 C',
  /** Canonical usage of every answer: input includes the cached part. */
  usage: { input: 42, cached: 10, output: 9 },
  /** A 1×1 PNG. */
  pngBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  imageUrl: 'https://example.com/cat.png',
} as const;

export interface MatrixUpstream {
  /** Shown in test names, e.g. `openai`. */
  name: string;
  createAdapter(upstreamUrl: string): ProviderAdapter;
  upstreamModel: string;
  /** Whether a recorded upstream request asked for a stream. */
  isStream(request: RecordedRequest): boolean;
  /** Upstream wire replies, producing MATRIX values (text, tool call, usage). */
  replies: {
    text(stream: boolean): MockReply;
    /** Calls MATRIX.toolName with MATRIX.toolArguments. */
    toolCall(stream: boolean): MockReply;
    afterTool(stream: boolean): MockReply;
  };
  /** The tool call id the client must see; undefined accepts any non-empty id. */
  toolCallId?: string;
  /** Reads what the upstream received. */
  read: {
    systemText(body: unknown): string;
    toolNames(body: unknown): string[];
    /** The tool result in a follow-up request: its call id (if the wire has one) and text. */
    toolResult(body: unknown): { id?: string; text: string } | undefined;
    /** Images in the last user turn: `url` or `base64` each. */
    images(body: unknown): Array<'url' | 'base64'>;
  };
  /** Image URLs the upstream cannot take (they are refused with a 400 instead). */
  refusesImageUrls?: boolean;
}

type Inbound = 'chat' | 'responses' | 'messages';

interface Turn {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: unknown }>;
  finish: string;
  usage: { input: number; output: number; cached: number };
}

/** One official client per inbound protocol, folded to the same shape. */
function createClients(gateway: RunningGateway) {
  const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0 });
  const chatTools = [
    {
      type: 'function' as const,
      function: { name: MATRIX.toolName, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  ];
  const responsesTools = [
    {
      type: 'function' as const,
      name: MATRIX.toolName,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: false,
    },
  ];
  const messagesTools = [
    { name: MATRIX.toolName, input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } },
  ];

  async function chat(model: string, stream: boolean, messages: OpenAI.Chat.ChatCompletionMessageParam[], tools: boolean) {
    const body = { model, messages, ...(tools ? { tools: chatTools } : {}) };
    const completion = stream
      ? await openai.chat.completions.stream({ ...body, stream_options: { include_usage: true } }).finalChatCompletion()
      : await openai.chat.completions.create(body);
    const message = completion.choices[0]?.message;
    const turn: Turn = {
      text: message?.content ?? '',
      toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) }] : [],
      ),
      finish: completion.choices[0]?.finish_reason ?? '',
      usage: {
        input: completion.usage?.prompt_tokens ?? -1,
        output: completion.usage?.completion_tokens ?? -1,
        cached: completion.usage?.prompt_tokens_details?.cached_tokens ?? -1,
      },
    };
    return { turn, message };
  }

  async function responses(model: string, stream: boolean, input: OpenAI.Responses.ResponseInput, tools: boolean) {
    const body = { model, input, instructions: MATRIX.system, ...(tools ? { tools: responsesTools } : {}) };
    const response = stream ? await openai.responses.stream(body).finalResponse() : await openai.responses.create(body);
    const turn: Turn = {
      text: response.output_text,
      toolCalls: response.output.flatMap((item) =>
        item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) }] : [],
      ),
      finish: response.status ?? '',
      usage: {
        input: response.usage?.input_tokens ?? -1,
        output: response.usage?.output_tokens ?? -1,
        cached: response.usage?.input_tokens_details.cached_tokens ?? -1,
      },
    };
    return { turn, output: response.output };
  }

  async function messages(model: string, stream: boolean, history: Anthropic.MessageParam[], tools: boolean) {
    const body = { model, max_tokens: 1024, system: MATRIX.system, messages: history, ...(tools ? { tools: messagesTools } : {}) };
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    const turn: Turn = {
      text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
      toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: block.input }] : [])),
      finish: message.stop_reason ?? '',
      usage: {
        // Anthropic input excludes the cache: add it back to compare in canonical terms.
        input: message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0) + (message.usage.cache_creation_input_tokens ?? 0),
        output: message.usage.output_tokens,
        cached: message.usage.cache_read_input_tokens ?? -1,
      },
    };
    return { turn, content: message.content };
  }

  return {
    /** A plain question. */
    async ask(inbound: Inbound, model: string, stream: boolean): Promise<Turn> {
      if (inbound === 'chat') {
        return (await chat(model, stream, [{ role: 'system', content: MATRIX.system }, { role: 'user', content: MATRIX.question }], false)).turn;
      }
      if (inbound === 'responses') return (await responses(model, stream, [{ role: 'user', content: MATRIX.question }], false)).turn;
      return (await messages(model, stream, [{ role: 'user', content: MATRIX.question }], false)).turn;
    },

    /** A question with the tool, then the tool result sent back. */
    async toolRoundTrip(inbound: Inbound, model: string, stream: boolean): Promise<{ first: Turn; second: Turn }> {
      if (inbound === 'chat') {
        const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
          { role: 'system', content: MATRIX.system },
          { role: 'user', content: MATRIX.question },
        ];
        const first = await chat(model, stream, history, true);
        const call = first.turn.toolCalls[0];
        history.push(first.message!, { role: 'tool', tool_call_id: call?.id ?? '', content: MATRIX.toolResult });
        return { first: first.turn, second: (await chat(model, stream, history, true)).turn };
      }
      if (inbound === 'responses') {
        const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: MATRIX.question }];
        const first = await responses(model, stream, input, true);
        const call = first.turn.toolCalls[0];
        input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), {
          type: 'function_call_output',
          call_id: call?.id ?? '',
          output: MATRIX.toolResult,
        });
        return { first: first.turn, second: (await responses(model, stream, input, true)).turn };
      }
      const history: Anthropic.MessageParam[] = [{ role: 'user', content: MATRIX.question }];
      const first = await messages(model, stream, history, true);
      const call = first.turn.toolCalls[0];
      history.push(
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id ?? '', content: MATRIX.toolResult }] },
      );
      return { first: first.turn, second: (await messages(model, stream, history, true)).turn };
    },

    /** A question with a base64 image and, unless skipped, an image URL. */
    async askWithImages(inbound: Inbound, model: string, withUrl: boolean): Promise<Turn> {
      const data = `data:image/png;base64,${MATRIX.pngBase64}`;
      if (inbound === 'chat') {
        const parts: OpenAI.Chat.ChatCompletionContentPart[] = [
          { type: 'text', text: 'What is in these pictures?' },
          { type: 'image_url', image_url: { url: data } },
          ...(withUrl ? [{ type: 'image_url' as const, image_url: { url: MATRIX.imageUrl } }] : []),
        ];
        return (await chat(model, false, [{ role: 'user', content: parts }], false)).turn;
      }
      if (inbound === 'responses') {
        const parts: OpenAI.Responses.ResponseInputContent[] = [
          { type: 'input_text', text: 'What is in these pictures?' },
          { type: 'input_image', image_url: data, detail: 'auto' },
          ...(withUrl ? [{ type: 'input_image' as const, image_url: MATRIX.imageUrl, detail: 'auto' as const }] : []),
        ];
        return (await responses(model, false, [{ role: 'user', content: parts }], false)).turn;
      }
      const blocks: Anthropic.ContentBlockParam[] = [
        { type: 'text', text: 'What is in these pictures?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: MATRIX.pngBase64 } },
        ...(withUrl ? [{ type: 'image' as const, source: { type: 'url' as const, url: MATRIX.imageUrl } }] : []),
      ];
      return (await messages(model, false, [{ role: 'user', content: blocks }], false)).turn;
    },
  };
}

const finishWords: Record<Inbound, { stop: string; tool: string }> = {
  chat: { stop: 'stop', tool: 'tool_calls' },
  responses: { stop: 'completed', tool: 'completed' },
  messages: { stop: 'end_turn', tool: 'tool_use' },
};

/**
 * The e2e matrix for one upstream: each official client (openai for Chat and Responses,
 * @anthropic-ai/sdk for Messages) × streaming and not, through the gateway to `upstream`
 * played by a mock server — text, a tool round trip, images, and what the upstream received.
 */
export function runMatrix(upstream: MatrixUpstream): void {
  describe(`matrix: every client → ${upstream.name}`, () => {
    let mock: MockUpstream;
    let gateway: RunningGateway;
    let clients: ReturnType<typeof createClients>;
    const model = `${upstream.name}-model`;

    beforeAll(async () => {
      mock = await startMockUpstream();
      gateway = await startGateway({
        providers: { upstream: upstream.createAdapter(mock.url) },
        models: [{ id: model, provider: 'upstream', upstreamModel: upstream.upstreamModel }],
      });
      clients = createClients(gateway);
    });
    afterAll(async () => {
      await gateway.close();
      await mock.close();
    });
    beforeEach(() => {
      mock.requests.length = 0;
    });

    const reply = (pick: keyof MatrixUpstream['replies']) => (request: RecordedRequest) =>
      upstream.replies[pick](upstream.isStream(request));

    for (const inbound of ['chat', 'responses', 'messages'] as const) {
      for (const stream of [false, true]) {
        const mode = stream ? 'streaming' : 'non-streaming';

        it(`should answer ${inbound} (${mode}) with text, finish reason and usage`, async () => {
          mock.reply(reply('text'));
          const turn = await clients.ask(inbound, model, stream);
          expect(turn.text).toBe(MATRIX.text);
          expect(turn.finish).toBe(finishWords[inbound].stop);
          expect(turn.usage).toEqual({ input: MATRIX.usage.input, output: MATRIX.usage.output, cached: MATRIX.usage.cached });
          const received = mock.requests[0]!;
          expect(upstream.isStream(received)).toBe(stream);
          expect(upstream.read.systemText(received.body)).toContain(MATRIX.system);
          expect(received.headers.authorization ?? '').not.toContain(TEST_KEY);
          expect(received.headers['x-api-key'] ?? '').not.toContain(TEST_KEY);
        });

        it(`should complete a tool round trip from ${inbound} (${mode})`, async () => {
          mock.reply(reply('toolCall'), reply('afterTool'));
          const { first, second } = await clients.toolRoundTrip(inbound, model, stream);
          expect(first.toolCalls).toHaveLength(1);
          const call = first.toolCalls[0]!;
          if (upstream.toolCallId !== undefined) expect(call.id).toBe(upstream.toolCallId);
          expect(call.id.length).toBeGreaterThan(0);
          expect(call.name).toBe(MATRIX.toolName);
          expect(call.arguments).toEqual(MATRIX.toolArguments);
          expect(first.finish).toBe(finishWords[inbound].tool);
          expect(second.text).toBe(MATRIX.afterToolText);
          expect(second.finish).toBe(finishWords[inbound].stop);

          expect(upstream.read.toolNames(mock.requests[0]!.body)).toEqual([MATRIX.toolName]);
          const result = upstream.read.toolResult(mock.requests[1]!.body);
          expect(result?.text).toContain(MATRIX.toolResult);
          if (result?.id !== undefined && upstream.toolCallId !== undefined) expect(result.id).toBe(upstream.toolCallId);
        });
      }

      it(`should carry images from ${inbound}`, async () => {
        mock.reply(reply('text'));
        const withUrl = !upstream.refusesImageUrls;
        const turn = await clients.askWithImages(inbound, model, withUrl);
        expect(turn.text).toBe(MATRIX.text);
        expect(upstream.read.images(mock.requests[0]!.body)).toEqual(withUrl ? ['base64', 'url'] : ['base64']);
      });

      if (upstream.refusesImageUrls) {
        it(`should refuse an image URL from ${inbound} with a 400 naming it`, async () => {
          const error = await clients.askWithImages(inbound, model, true).catch((caught: unknown) => caught);
          expect((error as { status?: number }).status).toBe(400);
          expect(String((error as Error).message).toLowerCase()).toContain('image');
          expect(mock.requests).toHaveLength(0);
        });
      }
    }
  });
}
