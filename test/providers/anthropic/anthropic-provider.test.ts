import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { createAnthropicProvider, type AnthropicProviderOptions } from '../../../src/providers/anthropic/index.js';
import type { ProviderContext } from '../../../src/providers/types.js';
import { checkStreamEvents } from '../../../src/testing/check-stream-events.js';
import { sseText, startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { gatewayErrorOfAsync } from '../../helpers/gateway-error-of.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
});

const provider = (options: AnthropicProviderOptions = {}) =>
  createAnthropicProvider({ apiKey: 'sk-ant-provider', baseURL: upstream.url, ...options });

function context(signal = new AbortController().signal): ProviderContext {
  return { signal, requestId: 'req_test', gatewayModel: 'claude-gateway', logger: silentLogger };
}

function request(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'claude-sonnet-4-5',
    stream: false,
    system: [{ type: 'text', text: 'You are a weather bot.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
    ...overrides,
  };
}

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const failure = (work: Promise<unknown>) => gatewayErrorOfAsync(() => work);

const body = () => upstream.requests[0]?.body as Record<string, unknown>;

describe('createAnthropicProvider', () => {
  describe('what the upstream receives', () => {
    it("should post to /v1/messages with the provider's key, the version header and the translated body", async () => {
      upstream.reply({ json: jsonFixture('messages', 'upstream-response') });
      await provider({ betas: ['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'] }).generate(request(), context());
      const received = upstream.requests[0];
      expect(received?.url).toBe('/v1/messages');
      expect(received?.headers['x-api-key']).toBe('sk-ant-provider');
      expect(received?.headers['anthropic-version']).toBe('2023-06-01');
      expect(received?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-1m-2025-08-07');
      expect(received?.headers.authorization).toBeUndefined();
      expect(body()).toEqual({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        system: [{ type: 'text', text: 'You are a weather bot.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
      });
    });

    it('should send tools, a tool round trip with merged parallel results, and images', async () => {
      upstream.reply({ json: jsonFixture('messages', 'upstream-response') });
      const tools = [
        { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      ];
      await provider().generate(
        request({
          tools,
          toolChoice: { type: 'required' },
          parallelToolCalls: false,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Weather here?' },
                { type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBORw0KGgo=' } },
                { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' } },
              ],
            },
            {
              role: 'assistant',
              content: [
                { type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
                { type: 'tool-call', id: 'call|2', name: 'get_weather', arguments: '' },
              ],
            },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: 'sunny' }] }] },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call|2', content: [{ type: 'text', text: 'cloudy' }] }] },
          ],
        }),
        context(),
      );
      const sent = body();
      expect(sent.tools).toEqual([{ name: 'get_weather', input_schema: tools[0]!.parameters }]);
      expect(sent.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
      const messages = sent.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
      expect(messages[0]?.content.slice(1)).toEqual([
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      ]);
      const sanitized = messages[1]?.content[1]?.id;
      expect(sanitized).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(messages[1]?.content[1]?.input).toEqual({});
      expect(messages[2]).toEqual({
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'sunny' },
          { type: 'tool_result', tool_use_id: sanitized, content: 'cloudy' },
        ],
      });
    });

    it('should use a per-model max_tokens default and strip /v1 from the base URL', async () => {
      upstream.reply({ json: jsonFixture('messages', 'upstream-response') });
      const adapter = provider({
        baseURL: `${upstream.url}/v1`,
        defaultMaxTokens: 1000,
        maxTokensByModel: { 'claude-sonnet-4': 16000, 'claude-sonnet-4-5': 32000 },
      });
      await adapter.generate(request(), context());
      expect(upstream.requests[0]?.url).toBe('/v1/messages');
      expect(body().max_tokens).toBe(32000);
      await adapter.generate(request({ model: 'claude-haiku-4-5' }), context());
      expect((upstream.requests[1]?.body as { max_tokens: number }).max_tokens).toBe(1000);
    });

    it('should refuse what Anthropic cannot carry before calling it', async () => {
      const error = await failure(provider().generate(request({ responseFormat: { type: 'json' } }), context()));
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE' });
      expect(error.message).toContain("'claude-gateway'");
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('answers', () => {
    it('should decode a non-streaming answer', async () => {
      upstream.reply({ json: jsonFixture('messages', 'upstream-response') });
      const response = await provider().generate(request(), context());
      expect(response.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
      expect(response.finishReason.unified).toBe('tool-calls');
      expect(response.usage).toMatchObject({ inputTokens: 472, outputTokens: 89 });
    });

    it('should stream with stream:true, split inside multi-byte characters', async () => {
      const text = 'Il fait beau à Paris — 21 °C ☀️';
      const sse = sseText([
        {
          event: 'message_start',
          data: {
            type: 'message_start',
            message: { id: 'msg_u', model: 'claude-x', content: [], usage: { input_tokens: 5, output_tokens: 1 } },
          },
        },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } },
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ]);
      upstream.reply({ sse, chunkBytes: 1 });
      const events = await collect(provider().stream(request({ stream: true }), context()));
      expect(body().stream).toBe(true);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('')).toBe(text);
    });

    it('should end the stream with an in-band error event after output has started', async () => {
      upstream.reply({ sse: sseFixture('messages', 'upstream-stream-error') });
      const events = await collect(provider().stream(request({ stream: true }), context()));
      expect(events.map((event) => event.type)).toEqual(['start', 'text-start', 'text-delta', 'error']);
      expect(events.at(-1)).toMatchObject({ error: { kind: 'overloaded', retryable: true } });
    });
  });

  describe('errors', () => {
    it('should turn 529 overloaded_error into a retryable overloaded error', async () => {
      upstream.reply({ status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
      expect(await failure(provider().generate(request(), context()))).toMatchObject({
        kind: 'overloaded',
        status: 529,
        retryable: true,
        message: 'Overloaded',
      });
    });

    it('should follow x-should-retry and keep retry-after', async () => {
      upstream.reply({
        status: 429,
        headers: { 'x-should-retry': 'false', 'retry-after': '7' },
        json: { type: 'error', error: { type: 'rate_limit_error', message: 'Quota exhausted' } },
      });
      expect(await failure(provider().generate(request(), context()))).toMatchObject({
        kind: 'rate_limit',
        retryable: false,
        retryAfter: 7,
      });
    });

    it("should report an upstream 401 as the gateway's credentials refused (502), never the caller's auth error", async () => {
      upstream.reply({ status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
      const error = await failure(collect(provider().stream(request({ stream: true }), context())));
      expect(error).toMatchObject({ kind: 'upstream', status: 502, code: 'UPSTREAM_AUTHENTICATION_FAILED', retryable: false });
      expect(error.message).toContain("refused the gateway's credentials (HTTP 401)");
      expect(error.message).toContain('invalid x-api-key');
    });
  });

  describe('abort', () => {
    it('should close the upstream connection when the signal fires mid-stream', async () => {
      upstream.reply({ hang: true, sse: `${sseFixture('messages', 'upstream-text').split('\n\n').slice(0, 2).join('\n\n')}\n\n` });
      const closedBefore = upstream.closedConnections;
      const controller = new AbortController();
      const iterator = provider()
        .stream(request({ stream: true }), context(controller.signal))
        [Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'start' });
      controller.abort();
      await iterator.next().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(upstream.closedConnections).toBeGreaterThan(closedBefore);
    });
  });

  describe('countTokens', () => {
    it('should post the count_tokens body without max_tokens, stream or sampling and return input_tokens', async () => {
      upstream.reply({ json: { input_tokens: 1234 } });
      const count = await provider().countTokens!(
        request({ maxOutputTokens: 100, sampling: { temperature: 0.5 }, stopSequences: ['x'], tools: [{ type: 'function', name: 'now' }] }),
        context(),
      );
      expect(count).toBe(1234);
      expect(upstream.requests[0]?.url).toBe('/v1/messages/count_tokens');
      expect(upstream.requests[0]?.headers['x-api-key']).toBe('sk-ant-provider');
      expect(body()).toEqual({
        model: 'claude-sonnet-4-5',
        system: [{ type: 'text', text: 'You are a weather bot.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
        tools: [{ name: 'now', input_schema: { type: 'object', properties: {} } }],
      });
    });
  });

  describe('description', () => {
    it('should speak the messages protocol and describe Claude models', () => {
      const adapter = provider();
      expect(adapter.protocol).toBe('messages');
      expect(adapter.id).toBe('anthropic');
      expect(adapter.capabilities?.('claude-sonnet-4-5')).toMatchObject({ reasoning: true, audio: false, providerTools: ['messages'] });
      expect(adapter.capabilities?.('claude-3-5-haiku-20241022')).toMatchObject({ reasoning: false });
    });
  });
});
