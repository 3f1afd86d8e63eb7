import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { decodeChatRequest } from '../../../src/protocols/chat-completions/index.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import { createOpenAIProvider, type OpenAIProviderOptions } from '../../../src/providers/openai/index.js';
import type { ProviderContext } from '../../../src/providers/types.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

const context = (signal: AbortSignal = new AbortController().signal): ProviderContext => ({
  signal,
  requestId: 'req_1',
  gatewayModel: 'gateway-gpt',
  logger: silentLogger,
});

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const request: CanonicalRequest = {
  model: 'gpt-4o',
  stream: false,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture, and the weather?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/jpeg', data: '/9j/4AAQ' } },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: '18°C' }] }] },
  ],
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  maxOutputTokens: 300,
};

describe('createOpenAIProvider', () => {
  let upstream: MockUpstream;
  const adapters: { close(): Promise<void> }[] = [];
  const create = (options: OpenAIProviderOptions) => {
    const adapter = createOpenAIProvider(options);
    adapters.push(adapter);
    return adapter;
  };

  beforeEach(async () => {
    upstream = await startMockUpstream();
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.close()));
    await upstream.close();
  });

  describe('what the upstream receives', () => {
    it('should post the translated request to /v1/chat/completions with the provider key', async () => {
      upstream.reply({ json: jsonFixture('chat-completions', 'upstream-response-tool-call') });
      const adapter = create({ apiKey: 'sk-provider', baseURL: `${upstream.url}/v1`, organization: 'org-1', project: 'proj-1' });
      await adapter.generate(request, context());
      const [received] = upstream.requests;
      expect(received?.url).toBe('/v1/chat/completions');
      expect(received?.headers).toMatchObject({
        authorization: 'Bearer sk-provider',
        'openai-organization': 'org-1',
        'openai-project': 'proj-1',
      });
      expect(received?.body).toEqual({
        model: 'gpt-4o',
        stream: false,
        max_completion_tokens: 300,
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture, and the weather?' },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        ],
        tools: [
          { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
        ],
      });
    });

    it('should keep a Chat caller’s extra fields on the wire (n, logprobs)', async () => {
      upstream.reply({ json: jsonFixture('chat-completions', 'upstream-response-tool-call') });
      const adapter = create({ apiKey: 'sk-provider', baseURL: `${upstream.url}/v1` });
      expect(adapter.protocol).toBe('chat');
      const chatRequest = decodeChatRequest({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        n: 2,
        logprobs: true,
        top_logprobs: 2,
      });
      await adapter.generate(chatRequest, context());
      expect(upstream.requests[0]?.body).toMatchObject({ n: 2, logprobs: true, top_logprobs: 2 });
    });

    it('should ask a stream for usage', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-text') });
      const adapter = create({ apiKey: 'sk-provider', baseURL: `${upstream.url}/v1` });
      await collect(adapter.stream({ ...request, stream: true }, context()));
      expect(upstream.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(upstream.requests[0]?.headers.accept).toBe('text/event-stream');
    });
  });

  describe('what comes back', () => {
    it('should decode the answer: tool call, finish reason and usage', async () => {
      upstream.reply({ json: jsonFixture('chat-completions', 'upstream-response-tool-call') });
      const response = await create({ apiKey: 'k', baseURL: `${upstream.url}/v1` }).generate(request, context());
      expect(response.content).toEqual([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
      expect(response.finishReason.unified).toBe('tool-calls');
      expect(response.usage).toMatchObject({ inputTokens: 20, cachedInputTokens: 8, reasoningTokens: 2 });
    });

    it('should stream text split inside multi-byte characters intact, usage at the end', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-text'), chunkBytes: 1 });
      const events = await collect(create({ apiKey: 'k', baseURL: `${upstream.url}/v1` }).stream({ ...request, stream: true }, context()));
      const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
      expect(text).toBe('Héllo wörld 🌍!');
      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 4 } });
    });

    it('should throw the upstream error with its message, status and retry-after', async () => {
      upstream.reply({
        status: 429,
        headers: { 'retry-after-ms': '1500' },
        json: { error: { message: 'Rate limit reached for gpt-4o', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
      });
      const error = await create({ apiKey: 'k', baseURL: `${upstream.url}/v1` })
        .generate(request, context())
        .catch((caught: unknown) => caught);
      expect(GatewayError.isInstance(error) && error).toMatchObject({
        status: 429,
        code: 'RATE_LIMIT_EXCEEDED',
        retryable: true,
        retryAfter: 1.5,
        message: 'Rate limit reached for gpt-4o',
      });
    });

    it('should release the upstream connection when the caller aborts a stream', async () => {
      upstream.reply({ hang: true, sse: `${sseFixture('chat-completions', 'upstream-text').split('\n\n').slice(0, 2).join('\n\n')}\n\n` });
      const controller = new AbortController();
      const iterator = create({ apiKey: 'k', baseURL: `${upstream.url}/v1` })
        .stream({ ...request, stream: true }, context(controller.signal))
        [Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'start' });
      controller.abort();
      await iterator.next().catch(() => undefined);
      await expect.poll(() => upstream.closedConnections).toBe(1);
    });
  });

  describe('azure', () => {
    it('should call the v1 API with the deployment as model and the key in api-key', async () => {
      upstream.reply({ json: jsonFixture('chat-completions', 'upstream-response-tool-call') });
      const adapter = create({ apiKey: 'azure-key', azure: { endpoint: upstream.url, deployments: { 'gpt-4o': 'prod-4o' } } });
      expect(adapter.id).toBe('azure-openai');
      await adapter.generate(request, context());
      const [received] = upstream.requests;
      expect(received?.url).toBe('/openai/v1/chat/completions');
      expect(received?.headers['api-key']).toBe('azure-key');
      expect(received?.headers.authorization).toBeUndefined();
      expect(received?.body).toMatchObject({ model: 'prod-4o' });
    });

    it('should call the deployment API with api-version when a version is given', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-azure') });
      const adapter = create({
        apiKey: 'azure-key',
        azure: { endpoint: upstream.url, apiVersion: '2024-10-21', deployments: { 'gpt-4o': 'prod 4o' } },
      });
      const events = await collect(adapter.stream({ ...request, stream: true }, context()));
      expect(upstream.requests[0]?.url).toBe('/openai/deployments/prod%204o/chat/completions?api-version=2024-10-21');
      expect(upstream.requests[0]?.body).toMatchObject({ stream_options: { include_usage: true }, max_completion_tokens: 300 });
      expect(events[0]).toEqual({ type: 'start', id: 'chatcmpl-az1', model: 'gpt-4o-2024-11-20' });
    });

    it('should use max_tokens and no stream_options before api-version 2024-09-01', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-azure') });
      const old = create({ apiKey: 'azure-key', azure: { endpoint: upstream.url, apiVersion: '2024-06-01' } });
      await collect(old.stream({ ...request, stream: true }, context()));
      expect(upstream.requests[0]?.body).toMatchObject({ max_tokens: 300 });
      expect(upstream.requests[0]?.body).not.toHaveProperty('stream_options');
      expect(upstream.requests[0]?.body).not.toHaveProperty('max_completion_tokens');
    });
  });

  describe('options', () => {
    it('should throw a coded config error for a missing key or a bad combination', () => {
      const saved = process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_API_KEY;
      try {
        expect(() => createOpenAIProvider({})).toThrow(expect.objectContaining({ code: 'CONFIG_PROVIDER_API_KEY_MISSING' }));
      } finally {
        if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
      }
      expect(() => createOpenAIProvider({ apiKey: 'k', baseURL: 'https://x/v1', azure: { resource: 'r' } })).toThrow(
        expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }),
      );
      expect(() => createOpenAIProvider({ apiKey: 'k', azure: {} })).toThrow(/exactly one of resource or endpoint/);
    });

    it('should not change the caller’s options object', () => {
      const options: OpenAIProviderOptions = { apiKey: 'k', azure: { resource: 'r' } };
      const copy = structuredClone(options);
      adapters.push(createOpenAIProvider(options));
      expect(options).toEqual(copy);
    });

    it('should be built from configuration as type openai, refusing unknown keys', () => {
      const adapter = createProviderFromConfig('openai', { apiKey: 'k', baseURL: `${upstream.url}/v1` });
      expect(adapter).toMatchObject({ id: 'openai', protocol: 'chat' });
      expect(() => createProviderFromConfig('openai', { apiKey: 'k', apikey: 'typo' })).toThrow(
        expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }),
      );
    });

    it('should state capabilities its model ids make certain', () => {
      const adapter = create({ apiKey: 'k' });
      expect(adapter.capabilities?.('gpt-4o')).toMatchObject({ reasoning: false, audio: false, providerTools: ['chat'] });
      expect(adapter.capabilities?.('o3')).not.toHaveProperty('reasoning');
      expect(adapter.capabilities?.('gpt-4o-audio-preview')).toMatchObject({ audio: true });
      expect(adapter.capabilities?.('gpt-3.5-turbo')).toMatchObject({ images: false });
    });
  });
});
