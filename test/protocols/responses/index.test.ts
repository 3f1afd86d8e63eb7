import { createServer, type Server } from 'node:http';
import { upstreamErrorCode } from '../../../src/canonical/index.js';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { Response as OpenAIResponse, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  GatewayError,
  type CanonicalRequest,
  type CanonicalResponse,
  type CanonicalStreamEvent,
  type Usage,
} from '../../../src/canonical/index.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';

/** What the fake gateway answers: a canonical response (non-stream), canonical events (stream) or an error. */
interface Script {
  response?: CanonicalResponse;
  events?: CanonicalStreamEvent[];
  error?: GatewayError;
  /** Fixed gateway request id (wire ids derive from it); default `req_t<n>`. */
  requestId?: string;
}

let script: Script = {};
let received: CanonicalRequest[] = [];
let server: Server;
let client: OpenAI;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const requestId = script.requestId ?? `req_t${received.length}`;
      try {
        if (script.error) throw script.error;
        const request = responsesCodec.decodeRequest(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        received.push(request);
        const context = { requestId, created: 1741476542, request };
        if (request.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': requestId });
          const encoder = responsesCodec.createStreamEncoder(context);
          for (const event of script.events ?? []) res.write(encoder.encode(event));
          res.end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': requestId });
          res.end(JSON.stringify(responsesCodec.encodeResponse(script.response as CanonicalResponse, context)));
        }
      } catch (error) {
        const gatewayError = GatewayError.isInstance(error)
          ? error
          : new GatewayError({ kind: 'internal', code: upstreamErrorCode('TEST_FAILURE'), message: String(error) });
        const rendered = responsesCodec.renderError(gatewayError, requestId);
        res.writeHead(rendered.status, { 'content-type': 'application/json', ...rendered.headers });
        res.end(JSON.stringify(rendered.body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'test-key', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  script = {};
  received = [];
});

const usage: Usage = { inputTokens: 20, cachedInputTokens: 5, outputTokens: 12, reasoningTokens: 4, totalTokens: 32 };
const start: CanonicalStreamEvent = { type: 'start', id: 'up_1', model: 'upstream' };
const finish = (unified: 'stop' | 'length' | 'tool-calls' = 'stop'): CanonicalStreamEvent => ({
  type: 'finish',
  finishReason: { unified },
  usage,
});
const text = (id: string, ...deltas: string[]): CanonicalStreamEvent[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): CanonicalStreamEvent => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
const call = (id: string, toolCallId: string, name: string, ...deltas: string[]): CanonicalStreamEvent[] => [
  { type: 'tool-call-start', id, toolCallId, name },
  ...deltas.map((delta): CanonicalStreamEvent => ({ type: 'tool-call-delta', id, delta })),
  { type: 'tool-call-end', id },
];
const thinking: CanonicalStreamEvent[] = [
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Weighing ' },
  { type: 'reasoning-delta', id: 'r', delta: 'options.' },
  { type: 'reasoning-end', id: 'r', signature: 'EqQBCkYIsig==' },
];
const weatherTools = [
  {
    type: 'function' as const,
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: false,
  },
  { type: 'function' as const, name: 'get_time', parameters: { type: 'object', properties: {} }, strict: false },
];
const calls = (response: OpenAIResponse) =>
  response.output.flatMap((item) => (item.type === 'function_call' ? [[item.call_id, item.name, item.arguments]] : []));

describe('responsesCodec', () => {
  describe('with the openai SDK, non-streaming (responses.create)', () => {
    it('should parse text, status, usage and the request id', async () => {
      script.response = {
        id: 'up',
        model: 'upstream',
        content: [{ type: 'text', text: 'Hello there.' }],
        finishReason: { unified: 'stop' },
        usage,
      };
      const { data, request_id } = await client.responses
        .create({ model: 'gpt-test', input: 'Hi', instructions: 'Be brief.' })
        .withResponse();
      expect(data.output_text).toBe('Hello there.');
      expect(data.status).toBe('completed');
      expect(data.instructions).toBe('Be brief.');
      expect(data.model).toBe('gpt-test');
      expect(data.usage).toEqual({
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 5, cache_write_tokens: 0 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 4 },
        total_tokens: 32,
      });
      expect(request_id).toBe('req_t0');
      expect(received[0]?.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    });

    it('should parse parallel function calls and take their outputs back as one tool message', async () => {
      script.response = {
        id: 'up',
        model: 'upstream',
        content: [
          { type: 'tool-call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_b', name: 'get_time', arguments: '' },
        ],
        finishReason: { unified: 'tool-calls' },
        usage,
      };
      const first = await client.responses.create({ model: 'gpt-test', input: 'Weather and time?', tools: weatherTools });
      expect(calls(first)).toEqual([
        ['call_a', 'get_weather', '{"city":"Paris"}'],
        ['call_b', 'get_time', '{}'],
      ]);

      script.response = { ...script.response, content: [{ type: 'text', text: 'Sunny, noon.' }], finishReason: { unified: 'stop' } };
      const input: ResponseInputItem[] = [
        { role: 'user', content: 'Weather and time?' },
        ...(first.output as ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
        { type: 'function_call_output', call_id: 'call_b', output: '12:00' },
      ];
      const second = await client.responses.create({ model: 'gpt-test', input, tools: weatherTools });
      expect(second.output_text).toBe('Sunny, noon.');
      expect(received[1]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
      expect(received[1]?.messages[1]?.content).toMatchObject([
        { type: 'tool-call', id: 'call_a', extensions: { responses: { id: 'fc_t0_0', status: 'completed' } } },
        { type: 'tool-call', id: 'call_b', arguments: '{}' },
      ]);
    });

    it('should report a cut-off answer as incomplete', async () => {
      script.response = { id: 'up', model: 'u', content: [{ type: 'text', text: 'Once' }], finishReason: { unified: 'length' }, usage };
      const response = await client.responses.create({ model: 'gpt-test', input: 'Story', max_output_tokens: 16 });
      expect(response.status).toBe('incomplete');
      expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
      expect(response.max_output_tokens).toBe(16);
      expect(response.output_text).toBe('Once');
    });

    it('should let responses.parse read structured output', async () => {
      script.response = {
        id: 'up',
        model: 'u',
        content: [{ type: 'text', text: '{"answer":"42"}' }],
        finishReason: { unified: 'stop' },
        usage,
      };
      const parsed = await client.responses.parse({
        model: 'gpt-test',
        input: 'Answer?',
        text: {
          format: {
            type: 'json_schema',
            name: 'answer',
            strict: true,
            schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
          },
        },
      });
      expect(parsed.output_parsed).toEqual({ answer: '42' });
      expect(received[0]?.responseFormat).toMatchObject({ type: 'json-schema', name: 'answer', strict: true });
    });

    it('should surface a rendered error as the SDK error class with code, param and request id', async () => {
      script.error = new GatewayError({
        kind: 'invalid_request',
        code: 'UNKNOWN_MODEL',
        param: 'model',
        message: "Model 'x' was not found.",
      });
      const error = await client.responses.create({ model: 'x', input: 'Hi' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({
        status: 400,
        code: 'model_not_found',
        param: 'model',
        type: 'invalid_request_error',
        requestID: 'req_t0',
      });
    });

    it('should surface a 429 as RateLimitError', async () => {
      script.error = new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 1 });
      const error = await client.responses.create({ model: 'x', input: 'Hi' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    });
  });

  describe('with the openai SDK, streaming', () => {
    it('should iterate responses.create({stream:true}) events with sequence numbers', async () => {
      script.events = [start, ...text('t', 'Hel', 'lo', '!'), finish()];
      const stream = await client.responses.create({ model: 'gpt-test', input: 'Hi', stream: true });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      expect(events[0]?.type).toBe('response.created');
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      expect(events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : [])).join('')).toBe('Hello!');
      const last = events.at(-1);
      if (last?.type !== 'response.completed') throw new Error(`expected response.completed, got ${last?.type}`);
      expect(last.response.output_text).toBe('Hello!');
      expect(last.response.usage?.total_tokens).toBe(32);
    });

    it('should assemble parallel calls with responses.stream().finalResponse()', async () => {
      script.events = [
        start,
        ...text('t', 'Checking both.'),
        ...call('c1', 'call_a', 'get_weather', '{"ci', 'ty":"Paris"}'),
        ...call('c2', 'call_b', 'get_time'),
        finish('tool-calls'),
      ];
      const argumentDeltas: string[] = [];
      const final = await client.responses
        .stream({ model: 'gpt-test', input: 'Weather and time?', tools: weatherTools })
        .on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta))
        .finalResponse();
      expect(argumentDeltas.join('')).toBe('{"city":"Paris"}');
      expect(final.output.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call']);
      expect(calls(final)).toEqual([
        ['call_a', 'get_weather', '{"city":"Paris"}'],
        ['call_b', 'get_time', '{}'],
      ]);
      expect(final.output_text).toBe('Checking both.');
      expect(final.status).toBe('completed');
    });

    it('should assemble reasoning and carry the thinking signature back on the next turn', async () => {
      script.events = [start, ...thinking, ...text('t', 'Take B.'), finish()];
      const final = await client.responses
        .stream({ model: 'gpt-test', input: 'A or B?', reasoning: { effort: 'high', summary: 'auto' } })
        .finalResponse();
      const [reasoning, message] = final.output;
      if (reasoning?.type !== 'reasoning') throw new Error('expected a reasoning item first');
      expect(reasoning.summary).toEqual([{ type: 'summary_text', text: 'Weighing options.' }]);
      expect(reasoning.encrypted_content).toMatch(/^sy1\./);
      expect(message?.type).toBe('message');
      expect(final.output_text).toBe('Take B.');
      expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(4);

      script.events = [start, ...text('t', 'Sure.'), finish()];
      await client.responses
        .stream({
          model: 'gpt-test',
          input: [{ role: 'user', content: 'A or B?' }, ...(final.output as ResponseInputItem[]), { role: 'user', content: 'Why?' }],
        })
        .finalResponse();
      expect(received[1]?.messages[1]?.content[0]).toMatchObject({
        type: 'reasoning',
        text: 'Weighing options.',
        signature: 'EqQBCkYIsig==',
      });
    });

    it('should end a truncated stream with response.incomplete that finalResponse reports', async () => {
      script.events = [start, ...text('t', 'Once upon'), finish('length')];
      const final = await client.responses.stream({ model: 'gpt-test', input: 'Story' }).finalResponse();
      expect(final.status).toBe('incomplete');
      expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
      expect(final.output_text).toBe('Once upon');
    });

    it('should deliver an in-band failure as response.failed carrying the error', async () => {
      const error = new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', message: 'The provider hung up.' });
      script.events = [start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Par' }, { type: 'error', error }];
      const stream = await client.responses.create({ model: 'gpt-test', input: 'Hi', stream: true });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const last = events.at(-1);
      if (last?.type !== 'response.failed') throw new Error(`expected response.failed, got ${last?.type}`);
      expect(last.response.error).toEqual({ code: 'server_error', message: 'The provider hung up.' });
      expect(last.response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    });

    it.each([
      { name: 'text', events: [start, ...text('t', 'Hi ', 'there'), finish()] },
      { name: 'reasoning and calls', events: [start, ...thinking, ...call('c', 'call_x', 'get_time', '{}'), finish('tool-calls')] },
      { name: 'truncated text', events: [start, ...text('t', 'Cut'), finish('length')] },
    ])('should fold the $name stream into the same response as the non-streaming body', async ({ events }) => {
      script.events = events;
      script.requestId = 'req_fold';
      const folded = await client.responses.stream({ model: 'gpt-test', input: 'Hi' }).finalResponse();
      const content = folded.output.flatMap((item): CanonicalResponse['content'] => {
        if (item.type === 'message')
          return item.content.map((part) =>
            part.type === 'output_text' ? { type: 'text' as const, text: part.text } : { type: 'refusal' as const, text: part.refusal },
          );
        if (item.type === 'function_call') return [{ type: 'tool-call', id: item.call_id, name: item.name, arguments: item.arguments }];
        if (item.type === 'reasoning')
          return [{ type: 'reasoning', text: item.summary.map((part) => part.text).join(''), signature: 'EqQBCkYIsig==' }];
        return [];
      });
      const last = events.at(-1);
      script.response = {
        id: 'up',
        model: 'u',
        content,
        finishReason: last?.type === 'finish' ? last.finishReason : { unified: 'stop' },
        usage,
      };
      const plain = await client.responses.parse({ model: 'gpt-test', input: 'Hi' }); // parse adds the same `parsed` fields the stream helper does
      expect(folded).toEqual(plain);
    });
  });
});
