import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import { createOpenAIResponsesProvider, type OpenAIResponsesProviderOptions } from '../../../src/providers/openai-responses/index.js';
import type { ProviderContext } from '../../../src/providers/types.js';
import { checkStreamEvents } from '../../../src/testing/check-stream-events.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

let upstream: MockUpstream;
beforeEach(async () => {
  upstream = await startMockUpstream();
});
afterEach(() => upstream.close());

const context = (signal = new AbortController().signal): ProviderContext => ({
  signal,
  requestId: 'req_test1',
  gatewayModel: 'smart',
  logger: silentLogger,
});
const adapter = (options: OpenAIResponsesProviderOptions = {}) =>
  createOpenAIResponsesProvider({ apiKey: 'sk-provider-key', baseURL: `${upstream.url}/v1`, ...options });

/** A Messages-style conversation: system, an image, a tool call with a thinking signature, and its result. */
const toolTurn: CanonicalRequest = {
  model: 'gpt-5',
  stream: false,
  system: [{ type: 'text', text: 'You are a weather bot.' }],
  maxOutputTokens: 512,
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather where this photo was taken?' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Looks like Paris.', signature: 'anthropic-signature' },
        { type: 'tool-call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01', content: [{ type: 'text', text: 'sunny' }] }] },
  ],
};

async function collect(events: AsyncIterable<CanonicalStreamEvent>) {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('createOpenAIResponsesProvider', () => {
  describe('countTokens', () => {
    it('should post the input half of the request to /v1/responses/input_tokens and return its count', async () => {
      upstream.reply({ json: { object: 'response.input_tokens', input_tokens: 321 } });
      const count = await adapter().countTokens!(toolTurn, context());
      expect(count).toBe(321);
      expect(upstream.requests[0]?.url).toBe('/v1/responses/input_tokens');
      expect(upstream.requests[0]?.headers.authorization).toBe('Bearer sk-provider-key');
      const body = upstream.requests[0]?.body as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['input', 'instructions', 'model', 'tools']);
      expect(body).toMatchObject({ model: 'gpt-5', instructions: 'You are a weather bot.' });
    });

    it('should refuse an answer without a count rather than guess one', async () => {
      upstream.reply({ json: { object: 'response.input_tokens' } });
      await expect(adapter().countTokens!(toolTurn, context())).rejects.toMatchObject({ code: 'UPSTREAM_INVALID_RESPONSE' });
    });
  });

  describe('what the upstream receives', () => {
    it('should post the translated request to /v1/responses with the provider key', async () => {
      upstream.reply({ json: jsonFixture('responses', 'upstream-response') });
      await adapter().generate(toolTurn, context());
      const [received] = upstream.requests;
      expect(received).toMatchObject({ method: 'POST', url: '/v1/responses' });
      expect(received?.headers.authorization).toBe('Bearer sk-provider-key');
      expect(received?.headers['x-client-request-id']).toBe('req_test1');
      expect(received?.body).toEqual({
        model: 'gpt-5',
        instructions: 'You are a weather bot.',
        input: [
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_text', text: 'Weather where this photo was taken?' },
              { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
            ],
          },
          {
            type: 'function_call',
            id: expect.stringMatching(/^fc_/),
            call_id: 'toolu_01',
            name: 'get_weather',
            arguments: '{"city":"Paris"}',
          },
          { type: 'function_call_output', call_id: 'toolu_01', output: 'sunny' },
        ],
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            strict: false,
          },
        ],
        max_output_tokens: 512,
        store: false,
      });
      expect(JSON.stringify(received?.body)).not.toContain('anthropic-signature');
    });

    it('should send organization, project and extra headers', async () => {
      upstream.reply({ json: jsonFixture('responses', 'upstream-response') });
      await adapter({ organization: 'org-1', project: 'proj-1', headers: { 'x-trace': 't' } }).generate(toolTurn, context());
      expect(upstream.requests[0]?.headers).toMatchObject({ 'openai-organization': 'org-1', 'openai-project': 'proj-1', 'x-trace': 't' });
    });

    it('should not call the upstream when the request has stop sequences', async () => {
      await expect(adapter().generate({ ...toolTurn, stopSequences: ['END'] }, context())).rejects.toMatchObject({
        status: 400,
        code: 'UNSUPPORTED_FEATURE',
        param: 'stop',
      });
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('answers', () => {
    it('should decode the answer, keeping OpenAI reasoning for replay', async () => {
      upstream.reply({ json: jsonFixture('responses', 'upstream-response') });
      const answer = await adapter().generate(toolTurn, context());
      expect(answer.finishReason.unified).toBe('tool-calls');
      expect(answer.content[0]).toMatchObject({
        type: 'reasoning',
        extensions: { responses: { encrypted_content: 'gAAAAABoA1encryptedReasoningBlob==' } },
      });
      expect(answer.usage).toMatchObject({ cachedInputTokens: 12, reasoningTokens: 64 });
    });

    it('should stream with stream: true, splitting the bytes anywhere', async () => {
      upstream.reply({ sse: sseFixture('responses', 'upstream-reasoning'), chunkBytes: 1 });
      const events = await collect(adapter().stream({ ...toolTurn, stream: true, reasoning: { effort: 'high' } }, context()));
      expect(upstream.requests[0]?.body).toMatchObject({
        stream: true,
        reasoning: { effort: 'high' },
        include: ['reasoning.encrypted_content'],
      });
      expect(checkStreamEvents(events)).toEqual([]);
      const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
      expect(text).toBe('Bonjour — café ☀️!');
      expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { reasoningTokens: 60 } });
    });
  });

  describe('failures', () => {
    it('should end with the in-stream error that comes before any output, as a retryable 429 (the gateway answers it with that status)', async () => {
      upstream.reply({ sse: sseFixture('responses', 'upstream-error-event') });
      const events = await collect(adapter().stream({ ...toolTurn, stream: true }, context()));
      expect(events.some((event) => event.type !== 'start' && event.type !== 'error')).toBe(false);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 429, retryable: true } });
    });

    it('should end with an error event when the failure comes after output', async () => {
      upstream.reply({ sse: sseFixture('responses', 'upstream-failed') });
      const events = await collect(adapter().stream({ ...toolTurn, stream: true }, context()));
      expect(events.some((event) => event.type === 'text-delta')).toBe(true);
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { message: 'The model crashed mid-answer.' } });
    });

    it("should turn an upstream 401 into the gateway's 502, with the provider's message", async () => {
      upstream.reply({
        status: 401,
        json: {
          error: { message: 'Incorrect API key provided: sk-prov***', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
        },
      });
      const error = (await adapter()
        .generate(toolTurn, context())
        .catch((caught: unknown) => caught)) as Error;
      expect(error).toMatchObject({ status: 502, kind: 'upstream', code: 'UPSTREAM_AUTHENTICATION_FAILED', retryable: false });
      expect(error.message).toContain('Incorrect API key provided: sk-prov***');
    });

    it('should release the upstream when the caller aborts mid-stream', async () => {
      upstream.reply({ hang: true, sse: `${sseFixture('responses', 'upstream-text').split('\n\n').slice(0, 4).join('\n\n')}\n\n` });
      const controller = new AbortController();
      const iterator = adapter()
        .stream({ ...toolTurn, stream: true }, context(controller.signal))
        [Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: 'start' });
      controller.abort();
      await iterator.next().catch(() => undefined);
      await expect.poll(() => upstream.closedConnections).toBe(1);
    });
  });

  describe('capabilities', () => {
    it('should speak responses and tell reasoning models from the name', () => {
      const provider = adapter();
      expect(provider.protocol).toBe('responses');
      expect(provider.capabilities?.('o3')).toMatchObject({ reasoning: true, providerTools: ['responses'], audio: false });
      expect(provider.capabilities?.('gpt-4.1')).toMatchObject({ reasoning: false });
      expect(provider.capabilities?.('my-finetune')).not.toHaveProperty('reasoning');
    });
  });

  describe('options', () => {
    it('should need a key for the real OpenAI service', () => {
      const saved = process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_API_KEY;
      try {
        expect(() => createOpenAIResponsesProvider()).toThrow(expect.objectContaining({ code: 'CONFIG_PROVIDER_API_KEY_MISSING' }));
        expect(() => createOpenAIResponsesProvider({ baseURL: 'http://localhost:8000/v1' })).not.toThrow();
      } finally {
        if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
      }
    });

    it("should leave the caller's options object unchanged", () => {
      const options = { apiKey: 'k', baseURL: `${upstream.url}/v1` };
      const copy = structuredClone(options);
      createOpenAIResponsesProvider(options);
      expect(options).toEqual(copy);
    });

    it('should be built from configuration as type openai-responses, refusing unknown keys', () => {
      expect(createProviderFromConfig('openai', { type: 'openai-responses', apiKey: 'k' })).toMatchObject({
        id: 'openai-responses',
        protocol: 'responses',
      });
      expect(() => createProviderFromConfig('openai', { type: 'openai-responses', apiKey: 'k', apikey: 'typo' })).toThrow(
        expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }),
      );
    });
  });
});
