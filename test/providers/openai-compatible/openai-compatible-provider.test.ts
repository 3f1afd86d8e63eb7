import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { decodeChatRequest } from '../../../src/protocols/chat-completions/index.js';
import { createProviderFromConfig } from '../../../src/providers/create-provider.js';
import { createOpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from '../../../src/providers/openai-compatible/index.js';
import type { ProviderContext } from '../../../src/providers/types.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { jsonFixture, sseFixture } from '../../helpers/fixtures.js';

const context: ProviderContext = { signal: new AbortController().signal, requestId: 'req_1', gatewayModel: 'g', logger: silentLogger };

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const tool = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object' } };
const toolTurn: CanonicalRequest = {
  model: 'served',
  stream: false,
  maxOutputTokens: 64,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Call it.' },
        { type: 'tool-call', id: 'toolu_01XYZ', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01XYZ', content: [{ type: 'text', text: '18°C' }] }] },
  ],
  tools: [tool],
};

describe('createOpenAICompatibleProvider', () => {
  let upstream: MockUpstream;
  const adapters: { close(): Promise<void> }[] = [];
  const create = (options: OpenAICompatibleProviderOptions) => {
    const adapter = createOpenAICompatibleProvider({ baseURL: `${upstream.url}/v1`, ...options });
    adapters.push(adapter);
    return adapter;
  };
  const failure = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => (GatewayError.isInstance(error) ? error : undefined),
    );

  beforeEach(async () => {
    upstream = await startMockUpstream();
    upstream.reply({ json: jsonFixture('chat-completions', 'upstream-response-deepseek') });
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.close()));
    await upstream.close();
  });

  describe('profiles', () => {
    it('should speak chat and post to {baseURL}/chat/completions with max_tokens and the server key (generic)', async () => {
      const adapter = create({ apiKey: 'server-key' });
      expect(adapter.protocol).toBe('chat');
      await adapter.generate(toolTurn, context);
      const [received] = upstream.requests;
      expect(received?.url).toBe('/v1/chat/completions');
      expect(received?.headers.authorization).toBe('Bearer server-key');
      expect(received?.body).toMatchObject({ model: 'served', max_tokens: 64 });
      expect(received?.body).not.toHaveProperty('max_completion_tokens');
    });

    it('should replay reasoning as `reasoning` and refuse a forced tool (Ollama)', async () => {
      const adapter = create({ profile: 'ollama' });
      await adapter.generate(toolTurn, context);
      expect(upstream.requests[0]?.headers.authorization).toMatch(/^Bearer /);
      expect(upstream.requests[0]?.body).toMatchObject({ messages: [{}, { role: 'assistant', reasoning: 'Call it.', content: null }, {}] });
      const error = await failure(adapter.generate({ ...toolTurn, toolChoice: { type: 'required' } }, context));
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE', param: 'tool_choice' });
      expect(error?.message).toContain("'served'");
      expect(upstream.requests).toHaveLength(1);
    });

    it('should send `thinking` and replay reasoning_content, refusing JSON schema output (DeepSeek)', async () => {
      const adapter = create({ profile: 'deepseek', apiKey: 'ds' });
      const response = await adapter.generate({ ...toolTurn, reasoning: { effort: 'high' } }, context);
      expect(upstream.requests[0]?.body).toMatchObject({
        thinking: { type: 'enabled' },
        reasoning_effort: 'high',
        messages: [{}, { role: 'assistant', reasoning_content: 'Call it.' }, {}],
      });
      expect(response.content[0]).toEqual({ type: 'reasoning', text: 'Compare 9.11 and 9.9: 0.11 < 0.9.' });
      const schema = { ...toolTurn, responseFormat: { type: 'json-schema' as const, schema: { type: 'object' } } };
      expect(await failure(adapter.generate(schema, context))).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'response_format' });
    });

    it('should not send stream_options, map ids to 9 characters and say `any` (Mistral)', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-text') });
      const adapter = create({ profile: 'mistral', apiKey: 'm' });
      const events = await collect(
        adapter.stream({ ...toolTurn, stream: true, toolChoice: { type: 'required' }, sampling: { seed: 3 } }, context),
      );
      const body = upstream.requests[0]?.body as Record<string, unknown> & { messages: Record<string, unknown>[] };
      expect(body).not.toHaveProperty('stream_options');
      expect(body).toMatchObject({ stream: true, tool_choice: 'any', random_seed: 3 });
      const id = (body.messages[1]?.tool_calls as { id: string }[])[0]?.id;
      expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: id });
      expect(body.messages[1]).not.toHaveProperty('reasoning_content');
      expect(events.at(-1)).toMatchObject({ type: 'finish' });
    });

    it('should refuse a Chat field Groq rejects and read Groq usage from x_groq', async () => {
      upstream.reply({ sse: sseFixture('chat-completions', 'upstream-groq') });
      const adapter = create({ profile: 'groq', apiKey: 'g' });
      const withLogprobs = decodeChatRequest({ model: 'served', messages: [{ role: 'user', content: 'Hi' }], logprobs: true });
      expect(await failure(adapter.generate(withLogprobs, context))).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'logprobs' });
      const events = await collect(adapter.stream({ ...toolTurn, stream: true }, context));
      expect(upstream.requests[0]?.body).toMatchObject({ max_completion_tokens: 64, stream_options: { include_usage: true } });
      expect(events.at(-1)).toMatchObject({ usage: { inputTokens: 11, outputTokens: 2 } });
    });

    it('should keep a vLLM caller’s own extras (chat_template_kwargs, top_k)', async () => {
      const adapter = create({ profile: 'vllm' });
      const chat = decodeChatRequest({
        model: 'served',
        messages: [{ role: 'user', content: 'Hi' }],
        top_k: 20,
        chat_template_kwargs: { enable_thinking: false },
      });
      await adapter.generate(chat, context);
      expect(upstream.requests[0]?.body).toMatchObject({ top_k: 20, chat_template_kwargs: { enable_thinking: false } });
    });

    it('should let quirks override a profile', async () => {
      const adapter = create({ profile: 'vllm', quirks: { maxTokensField: 'max_completion_tokens' } });
      await adapter.generate(toolTurn, context);
      expect(upstream.requests[0]?.body).toMatchObject({ max_completion_tokens: 64 });
    });

    it('should ask LM Studio for JSON with a permissive json_schema', async () => {
      const adapter = create({ profile: 'lm-studio' });
      await adapter.generate({ ...toolTurn, responseFormat: { type: 'json' } }, context);
      expect(upstream.requests[0]?.body).toMatchObject({
        response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
      });
    });
  });

  describe('errors', () => {
    it('should parse a flat error body (Mistral, old vLLM) into a non-retryable 422', async () => {
      upstream.reply({
        status: 422,
        json: { object: 'error', message: 'Extra inputs are not permitted', type: 'invalid_request_error', param: null, code: '3001' },
      });
      const error = await failure(create({ profile: 'mistral', apiKey: 'm' }).generate(toolTurn, context));
      expect(error).toMatchObject({ status: 422, kind: 'invalid_request', retryable: false, message: 'Extra inputs are not permitted' });
    });
  });

  describe('options', () => {
    it('should require a baseURL for the generic profile, with a coded error', () => {
      expect(() => createOpenAICompatibleProvider({})).toThrow(expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }));
      expect(() => createOpenAICompatibleProvider({ profile: 'ollama' }).close()).not.toThrow();
    });

    it('should be built from configuration as type openai-compatible, refusing unknown quirks', () => {
      const adapter = createProviderFromConfig('local', { type: 'openai-compatible', profile: 'vllm', baseURL: `${upstream.url}/v1` });
      expect(adapter).toMatchObject({ id: 'openai-compatible:vllm', protocol: 'chat' });
      expect(() => createProviderFromConfig('local', { type: 'openai-compatible', profile: 'vllm', quirks: { maxTokens: 'x' } })).toThrow(
        expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }),
      );
      expect(() => createProviderFromConfig('local', { type: 'openai-compatible', profile: 'nope' })).toThrow(
        expect.objectContaining({ code: 'CONFIG_PROVIDER_INVALID' }),
      );
    });

    it('should not change the caller’s options object', () => {
      const options: OpenAICompatibleProviderOptions = { profile: 'groq', quirks: { topK: true } };
      const copy = structuredClone(options);
      adapters.push(createOpenAICompatibleProvider(options));
      expect(options).toEqual(copy);
    });
  });
});
