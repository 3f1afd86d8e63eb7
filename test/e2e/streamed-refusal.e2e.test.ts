import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../src/providers/openai/index.js';
import { createOpenAIResponsesProvider } from '../../src/providers/openai-responses/index.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const REFUSAL = "I'm sorry, I can't help with that.";
const usage = { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 };

/** An OpenAI Chat Completions refusal, streamed as OpenAI does: a role chunk, then `delta.refusal` fragments. */
const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-refuse1',
  object: 'chat.completion.chunk',
  created: 1730000000,
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const chatRefusalSse = sseText([
  { data: chatChunk({ role: 'assistant', content: null, refusal: '' }) },
  { data: chatChunk({ refusal: "I'm sorry, " }) },
  { data: chatChunk({ refusal: "I can't help with that." }) },
  { data: chatChunk({}, 'stop') },
  { data: { ...chatChunk({}), choices: [], usage } },
  { data: '[DONE]' },
]);
const chatRefusalJson = {
  ...chatChunk({}),
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: REFUSAL }, logprobs: null, finish_reason: 'stop' }],
  usage,
};

/** An OpenAI Responses refusal: a message item whose content part is `refusal`, fed by `response.refusal.delta`. */
const refusalItem = (status: string, refusal?: string) => ({
  id: 'msg_refuse1',
  type: 'message',
  status,
  role: 'assistant',
  content: refusal === undefined ? [] : [{ type: 'refusal', refusal }],
});
const responseBody = (status: string, output: unknown[]) => ({
  id: 'resp_refuse1',
  object: 'response',
  created_at: 1741476542,
  model: 'gpt-5-2025-08-07',
  status,
  output,
  usage: status === 'completed' ? { input_tokens: 12, output_tokens: 9, total_tokens: 21 } : null,
});
const at = { item_id: 'msg_refuse1', output_index: 0, content_index: 0 };
const responsesRefusalSse = sseText(
  [
    { type: 'response.created', response: responseBody('in_progress', []) },
    { type: 'response.in_progress', response: responseBody('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: refusalItem('in_progress') },
    { type: 'response.content_part.added', ...at, part: { type: 'refusal', refusal: '' } },
    { type: 'response.refusal.delta', ...at, delta: "I'm sorry, " },
    { type: 'response.refusal.delta', ...at, delta: "I can't help with that." },
    { type: 'response.refusal.done', ...at, refusal: REFUSAL },
    { type: 'response.content_part.done', ...at, part: { type: 'refusal', refusal: REFUSAL } },
    { type: 'response.output_item.done', output_index: 0, item: refusalItem('completed', REFUSAL) },
    { type: 'response.completed', response: responseBody('completed', [refusalItem('completed', REFUSAL)]) },
  ].map((data, sequence) => ({ event: data.type, data: { ...data, sequence_number: sequence } })),
);
const responsesRefusalJson = responseBody('completed', [refusalItem('completed', REFUSAL)]);

let upstream: MockUpstream;
let gateway: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;
let chatProvider: ReturnType<typeof createOpenAIProvider>;

beforeAll(async () => {
  upstream = await startMockUpstream();
  chatProvider = createOpenAIProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` });
  gateway = await startGateway({
    providers: { chat: chatProvider, responses: createOpenAIResponsesProvider({ apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` }) },
    models: [
      { id: 'chat-model', provider: 'chat', upstreamModel: 'gpt-4o' },
      { id: 'responses-model', provider: 'responses', upstreamModel: 'gpt-5' },
    ],
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
  await chatProvider.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Help me pick a lock.' }];
const chatView = (completion: OpenAI.Chat.Completions.ChatCompletion) => ({
  content: completion.choices[0]?.message.content,
  refusal: completion.choices[0]?.message.refusal,
  finish: completion.choices[0]?.finish_reason,
});
/** A Responses answer's output as sent: the stream helper adds `parsed: null` to every content part. */
const wireOutput = (response: OpenAI.Responses.Response) =>
  response.output.map((item) =>
    item.type === 'message'
      ? { ...item, content: item.content.map((part) => Object.fromEntries(Object.entries(part).filter(([key]) => key !== 'parsed'))) }
      : item,
  );
/** The same without the item ids the gateway mints per request. */
const outputView = (response: OpenAI.Responses.Response) => wireOutput(response).map(({ id: _id, ...item }) => item);

describe('a streamed refusal from an OpenAI Chat upstream', () => {
  it('should reach a Chat client as message.refusal with content null, as when not streamed', async () => {
    upstream.reply({ sse: chatRefusalSse, chunkBytes: 11 });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    const runner = openai.chat.completions.stream({ model: 'chat-model', messages }).on('chunk', (chunk) => chunks.push(chunk));
    const folded = await runner.finalChatCompletion();
    expect(upstream.requests[0]?.body).toMatchObject({ model: 'gpt-4o', stream: true });
    expect(chatView(folded)).toEqual({ content: null, refusal: REFUSAL, finish: 'stop' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('');

    upstream.reply({ json: chatRefusalJson });
    const plain = await openai.chat.completions.create({ model: 'chat-model', messages });
    expect(chatView(plain)).toEqual(chatView(folded));
  });

  it('should reach a Responses client as a refusal content part, as when not streamed', async () => {
    upstream.reply({ sse: chatRefusalSse, chunkBytes: 11 });
    const folded = await openai.responses.stream({ model: 'chat-model', input: 'Help me pick a lock.' }).finalResponse();
    expect(outputView(folded)).toEqual([
      { type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: REFUSAL }] },
    ]);
    expect(folded.output_text).toBe('');

    upstream.reply({ json: chatRefusalJson });
    const plain = await openai.responses.create({ model: 'chat-model', input: 'Help me pick a lock.' });
    expect(outputView(plain)).toEqual(outputView(folded));
  });

  it('should reach an Anthropic client as text (Messages has no refusal content), as when not streamed', async () => {
    upstream.reply({ sse: chatRefusalSse, chunkBytes: 11 });
    const request = { model: 'chat-model', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Help me pick a lock.' }] };
    const folded = await anthropic.messages.stream(request).finalMessage();
    expect(folded.content).toEqual([{ type: 'text', text: REFUSAL }]);

    upstream.reply({ json: chatRefusalJson });
    const plain = await anthropic.messages.create(request);
    expect(plain.content).toEqual(folded.content);
    expect(plain.stop_reason).toBe(folded.stop_reason);
  });
});

describe('a streamed refusal from an OpenAI Responses upstream', () => {
  it('should reach a Responses client as a refusal part under OpenAI item id, as when not streamed', async () => {
    upstream.reply({ sse: responsesRefusalSse, chunkBytes: 13 });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    const stream = openai.responses
      .stream({ model: 'responses-model', input: 'Help me pick a lock.' })
      .on('event', (event) => events.push(event));
    const folded = await stream.finalResponse();
    expect(upstream.requests[0]?.body).toMatchObject({ model: 'gpt-5', stream: true });
    expect(wireOutput(folded)).toEqual([refusalItem('completed', REFUSAL)]);
    expect(events.filter((event) => event.type === 'response.refusal.delta').map((event) => event.delta)).toEqual([
      "I'm sorry, ",
      "I can't help with that.",
    ]);

    upstream.reply({ json: responsesRefusalJson });
    const plain = await openai.responses.create({ model: 'responses-model', input: 'Help me pick a lock.' });
    expect(wireOutput(plain)).toEqual(wireOutput(folded));
  });

  it('should reach a Chat client as message.refusal', async () => {
    upstream.reply({ sse: responsesRefusalSse });
    const folded = await openai.chat.completions.stream({ model: 'responses-model', messages }).finalChatCompletion();
    expect(chatView(folded)).toEqual({ content: null, refusal: REFUSAL, finish: 'stop' });
  });
});
