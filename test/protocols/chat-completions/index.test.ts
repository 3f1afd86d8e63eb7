import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalRequest, type CanonicalResponse, type CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { chatCodec } from '../../../src/protocols/chat-completions/index.js';
import type { EncodeContext } from '../../../src/protocols/codec.js';

/*
 * Acceptance by the official openai SDK: a node:http server answers with the codec's own
 * output (JSON body or SSE frames written one event at a time) and the SDK parses it.
 */

type Answer = { response: CanonicalResponse } | { events: CanonicalStreamEvent[] } | { error: GatewayError };

let server: Server;
let client: OpenAI;
let answer: Answer;
let received: CanonicalRequest | undefined;

const contextFor = (request: CanonicalRequest): EncodeContext => ({ requestId: 'req_sdk1', created: 1730000000, request });

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const request = chatCodec.decodeRequest(JSON.parse(raw));
      received = request;
      if ('error' in answer) {
        const rendered = chatCodec.renderError(answer.error, 'req_sdk1');
        res.writeHead(rendered.status, { 'content-type': 'application/json', ...rendered.headers });
        res.end(JSON.stringify(rendered.body));
      } else if ('response' in answer) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_sdk1' });
        res.end(JSON.stringify(chatCodec.encodeResponse(answer.response, contextFor(request))));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_sdk1' });
        const encoder = chatCodec.createStreamEncoder(contextFor(request));
        for (const event of answer.events) res.write(encoder.encode(event));
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  received = undefined;
});

const usage = { inputTokens: 20, outputTokens: 7, totalTokens: 27, cachedInputTokens: 4 };
const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'get_time' } },
];
const parallelCallEvents: CanonicalStreamEvent[] = [
  { type: 'start', id: 'msg_1', model: 'claude' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Checking ' },
  { type: 'text-delta', id: 't', delta: 'both.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'a', toolCallId: 'toolu_a', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'a', delta: '{"city":' },
  { type: 'tool-call-delta', id: 'a', delta: '"Paris"}' },
  { type: 'tool-call-end', id: 'a' },
  { type: 'tool-call-start', id: 'b', toolCallId: 'toolu_b', name: 'get_time' },
  { type: 'tool-call-end', id: 'b' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage },
];

describe('chatCodec', () => {
  it('should be parsed by chat.completions.create for a text answer', async () => {
    answer = {
      response: {
        id: 'msg_1',
        model: 'claude',
        content: [{ type: 'text', text: 'Hello!' }],
        finishReason: { unified: 'stop' },
        usage,
      },
    };
    const completion = await client.chat.completions.create({
      model: 'my-model',
      messages: [
        { role: 'developer', content: 'Be nice.' },
        { role: 'user', content: 'Hi' },
      ],
      max_completion_tokens: 50,
    });
    expect(received).toMatchObject({ model: 'my-model', maxOutputTokens: 50, stream: false });
    expect(completion.id).toBe('chatcmpl-sdk1');
    expect(completion.model).toBe('my-model');
    expect(completion.choices[0]?.message.content).toBe('Hello!');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 });
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(4);
  });

  it('should be parsed by chat.completions.create for parallel tool calls', async () => {
    answer = {
      response: {
        id: 'msg_2',
        model: 'claude',
        content: [
          { type: 'tool-call', id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'toolu_b', name: 'get_time', arguments: '' },
        ],
        finishReason: { unified: 'tool-calls' },
        usage,
      },
    };
    const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Go' }], tools });
    const message = completion.choices[0]?.message;
    expect(message?.content).toBeNull();
    expect(message?.tool_calls).toEqual([
      { id: 'toolu_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'toolu_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('should be iterated by create({stream: true}) with one id and a final usage chunk', async () => {
    answer = { events: parallelCallEvents };
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Go' }],
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(received?.includeUsage).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.id))).toEqual(new Set(['chatcmpl-sdk1']));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Checking both.');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(27);
  });

  it('should be assembled by chat.completions.stream().finalChatCompletion() with parallel tool calls', async () => {
    answer = { events: parallelCallEvents };
    const runner = client.chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'Go' }],
      tools,
      stream_options: { include_usage: true },
    });
    const final = await runner.finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.role).toBe('assistant');
    expect(message?.content).toBe('Checking both.');
    expect(message?.tool_calls).toEqual([
      { id: 'toolu_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'toolu_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 });
  });

  it('should fold a tool-only stream into the same message as the non-streamed answer', async () => {
    const events = parallelCallEvents.filter((event) => !event.type.startsWith('text-'));
    answer = { events };
    const folded = await client.chat.completions
      .stream({ model: 'm', messages: [{ role: 'user', content: 'Go' }], tools })
      .finalChatCompletion();
    answer = {
      response: {
        id: 'msg_1',
        model: 'claude',
        content: [
          { type: 'tool-call', id: 'toolu_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'toolu_b', name: 'get_time', arguments: '' },
        ],
        finishReason: { unified: 'stop' },
        usage,
      },
    };
    const plain = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Go' }], tools });
    const view = (completion: OpenAI.Chat.Completions.ChatCompletion) => ({
      content: completion.choices[0]?.message.content,
      refusal: completion.choices[0]?.message.refusal,
      calls: completion.choices[0]?.message.tool_calls?.map((call) => (call.type === 'function' ? [call.id, call.function.arguments] : [])),
      finish: completion.choices[0]?.finish_reason,
    });
    expect(view(folded)).toEqual(view(plain));
    expect(view(plain).content).toBeNull();
  });

  it('should be assembled by finalChatCompletion() with reasoning kept out of the content', async () => {
    answer = {
      events: [
        { type: 'start', id: 'msg_3', model: 'claude' },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Hmm.' },
        { type: 'reasoning-end', id: 'r', signature: 'sig' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Four.' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'length' }, usage },
      ],
    };
    const final = await client.chat.completions.stream({ model: 'm', messages: [{ role: 'user', content: '2+2?' }] }).finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Four.');
    expect(final.choices[0]?.finish_reason).toBe('length');
    expect(final.choices[0]?.message).toMatchObject({
      thinking_blocks: [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }],
    });
  });

  it('should make the SDK throw an APIError for an in-band stream error', async () => {
    answer = {
      events: [
        { type: 'start', id: 'msg_4', model: 'claude' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Par' },
        { type: 'error', error: new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', message: 'Provider died.' }) },
      ],
    };
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Go' }], stream: true });
    const consume = async () => {
      for await (const chunk of stream) void chunk;
    };
    await expect(consume()).rejects.toMatchObject({ message: expect.stringContaining('Provider died.'), code: 'upstream_error' });
  });

  it('should make the SDK throw its status class with code, param and request id', async () => {
    answer = { error: new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 2 }) };
    const failure = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Go' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError);
    expect(failure).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'rate_limit_error', requestID: 'req_sdk1' });

    answer = { error: new GatewayError({ kind: 'not_found', code: 'UNKNOWN_MODEL', message: 'No such model.', param: 'model' }) };
    const missing = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Go' }] })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ code: 'model_not_found', param: 'model', message: '404 No such model.' });
  });

  it('should list only hint fields as hints', () => {
    expect(chatCodec.protocol).toBe('chat');
    expect(chatCodec.hintFields.has('prompt_cache_key')).toBe(true);
    expect(chatCodec.hintFields.has('n')).toBe(false);
    expect(chatCodec.hintFields.has('logprobs')).toBe(false);
  });
});
