import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalResponse, type CanonicalStreamEvent, upstreamErrorCode } from '../../../src/canonical/index.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { createEncodeContext } from './encode-context.js';

/** What the test server answers next; the gateway codec writes every byte of it. */
type Reply = (response: ServerResponse) => void;

let reply: Reply = (response) => response.end();
const receivedBodies: unknown[] = [];
let server: Server;
let baseURL = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      receivedBodies.push(JSON.parse(body));
      reply(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

const context = createEncodeContext();
const usage = { inputTokens: 1200, cachedInputTokens: 1000, cacheWriteTokens: 100, outputTokens: 80 };
const answer: CanonicalResponse = {
  id: 'chatcmpl-up',
  model: 'upstream',
  content: [
    { type: 'reasoning', text: 'Two cities, two calls.', signature: 'EqQBsig==' },
    { type: 'text', text: 'Checking both.' },
    { type: 'tool-call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'tool-call', id: 'toolu_02', name: 'get_weather', arguments: '{"city":"Tokyo"}' },
  ],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
};
const answerEvents: CanonicalStreamEvent[] = [
  { type: 'start', id: 'chatcmpl-up', model: 'upstream' },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Two cities, ' },
  { type: 'reasoning-delta', id: 'r', delta: 'two calls.' },
  { type: 'reasoning-end', id: 'r', signature: 'EqQBsig==' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Checking both.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-call-start', id: 'a', toolCallId: 'toolu_01', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'a', delta: '{"city":' },
  { type: 'tool-call-delta', id: 'a', delta: '"Paris"}' },
  { type: 'tool-call-end', id: 'a' },
  { type: 'tool-call-start', id: 'b', toolCallId: 'toolu_02', name: 'get_weather' },
  { type: 'tool-call-delta', id: 'b', delta: '{"city":"Tokyo"}' },
  { type: 'tool-call-end', id: 'b' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
];
const expectedMessage = {
  id: 'msg_01TEST',
  model: 'claude-gateway',
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'Two cities, two calls.', signature: 'EqQBsig==' },
    { type: 'text', text: 'Checking both.' },
    { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Tokyo' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 100, cache_read_input_tokens: 1000, cache_creation_input_tokens: 100, output_tokens: 80 },
};

const replyJson =
  (response: CanonicalResponse): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': context.requestId });
    res.end(JSON.stringify(messagesCodec.encodeResponse(response, context)));
  };

const replySse =
  (events: CanonicalStreamEvent[]): Reply =>
  (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': context.requestId });
    const encoder = messagesCodec.createStreamEncoder(context);
    for (const event of events) res.write(encoder.encode(event));
    res.end();
  };

const replyError =
  (error: GatewayError, requestId: string): Reply =>
  (res) => {
    const rendered = messagesCodec.renderError(error, requestId);
    res.writeHead(rendered.status, { 'content-type': 'application/json', ...rendered.headers });
    res.end(JSON.stringify(rendered.body));
  };

const params = { model: 'claude-gateway', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'Weather in Paris and Tokyo?' }] };

/** The calls under test, written once per SDK line so each is type-checked against its own types. */
interface SdkUnderTest {
  create(): Promise<unknown>;
  iterate(): Promise<Array<{ type: string }>>;
  finalMessage(): Promise<unknown>;
  rateLimitError: abstract new (...args: never[]) => unknown;
  overloadedError: abstract new (...args: never[]) => unknown;
}

const sdks: Array<[string, () => SdkUnderTest]> = [
  [
    '@anthropic-ai/sdk 1.x',
    () => {
      const client = new Anthropic({ apiKey: 'sk-test', baseURL, maxRetries: 0 });
      return {
        create: () => client.messages.create(params),
        iterate: async () => {
          const events: Array<{ type: string }> = [];
          for await (const event of await client.messages.create({ ...params, stream: true })) events.push(event);
          return events;
        },
        finalMessage: () => client.messages.stream(params).finalMessage(),
        rateLimitError: Anthropic.RateLimitError,
        overloadedError: Anthropic.OverloadedError,
      };
    },
  ],
  [
    'anthropic-sdk-0 (0.x)',
    () => {
      const client = new Anthropic0({ apiKey: 'sk-test', baseURL, maxRetries: 0 });
      return {
        create: () => client.messages.create(params),
        iterate: async () => {
          const events: Array<{ type: string }> = [];
          for await (const event of await client.messages.create({ ...params, stream: true })) events.push(event);
          return events;
        },
        finalMessage: () => client.messages.stream(params).finalMessage(),
        rateLimitError: Anthropic0.RateLimitError,
        overloadedError: Anthropic0.InternalServerError,
      };
    },
  ],
];

describe('messagesCodec', () => {
  describe.each(sdks)('with %s', (_name, createSdk) => {
    it('should parse a non-streaming answer with thinking, text, parallel tool_use, usage and stop_reason', async () => {
      reply = replyJson(answer);
      const message = await createSdk().create();
      expect(message).toMatchObject(expectedMessage);
      expect(messagesCodec.decodeRequest(receivedBodies.at(-1))).toMatchObject({ model: 'claude-gateway', maxOutputTokens: 1024 });
    });

    it('should iterate a create({stream:true}) stream event by event', async () => {
      reply = replySse(answerEvents);
      const events = await createSdk().iterate();
      expect(events[0]).toMatchObject({ type: 'message_start', message: { id: 'msg_01TEST', content: [] } });
      expect(events.filter((event) => event.type === 'content_block_start')).toHaveLength(4);
      expect(events.at(-2)).toMatchObject({
        type: 'message_delta',
        delta: { stop_reason: 'tool_use' },
        usage: { output_tokens: 80, input_tokens: 100 },
      });
      expect(events.at(-1)).toEqual({ type: 'message_stop' });
    });

    it('should build the same message with messages.stream().finalMessage()', async () => {
      reply = replySse(answerEvents);
      expect(await createSdk().finalMessage()).toMatchObject(expectedMessage);
    });

    it('should accumulate a no-arg tool call as an empty input object', async () => {
      reply = replySse([
        { type: 'start', id: 'x', model: 'm' },
        { type: 'tool-call-start', id: 'a', toolCallId: 'toolu_9', name: 'now' },
        { type: 'tool-call-delta', id: 'a', delta: '' },
        { type: 'tool-call-end', id: 'a' },
        { type: 'finish', finishReason: { unified: 'tool-calls' }, usage: {} },
      ]);
      expect(await createSdk().finalMessage()).toMatchObject({
        content: [{ type: 'tool_use', id: 'toolu_9', name: 'now', input: {} }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 0, output_tokens: 0 },
      });
    });

    it('should raise the rate-limit error class with the request id from the request-id header', async () => {
      const sdk = createSdk();
      reply = replyError(new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 1 }), 'req_rate1');
      const error = await sdk.create().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(sdk.rateLimitError);
      expect(error).toMatchObject({
        status: 429,
        requestID: 'req_rate1',
        error: { error: { type: 'rate_limit_error', message: 'Slow down.' } },
      });
    });

    it('should raise the overloaded error class for status 529', async () => {
      const sdk = createSdk();
      reply = replyError(
        new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'Overloaded' }),
        'req_over1',
      );
      const error = await sdk.create().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(sdk.overloadedError);
      expect(error).toMatchObject({ status: 529, requestID: 'req_over1' });
    });

    it('should throw on an in-band stream error', async () => {
      reply = replySse([
        { type: 'start', id: 'x', model: 'm' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Partial' },
        {
          type: 'error',
          error: new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'Overloaded' }),
        },
      ]);
      await expect(createSdk().finalMessage()).rejects.toMatchObject({ error: { error: { type: 'overloaded_error' } } });
    });
  });
});
