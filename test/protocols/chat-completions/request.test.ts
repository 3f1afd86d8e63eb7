import { describe, expect, it } from 'vitest';
import { decodeChatRequest } from '../../../src/protocols/chat-completions/request.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const fixture = (name: string) => jsonFixture('chat-completions', name);

const body = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

const decodeError = (input: unknown) => gatewayErrorOf(() => decodeChatRequest(input));

describe('decodeChatRequest', () => {
  describe('real client bodies', () => {
    it('should decode an openai-agents body with developer instructions, parallel tool calls and their results', () => {
      const request = decodeChatRequest(fixture('openai-agents-tools'));
      expect(request.system).toEqual([
        {
          type: 'text',
          text: 'You are a travel assistant. Use tools when needed.',
          extensions: { chat: { role: 'developer' } },
        },
      ]);
      expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
      expect(request.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_t1', name: 'get_time', arguments: '{}' },
        ],
      });
      expect(request.messages[2]).toEqual({
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_w1', content: [{ type: 'text', text: '18°C, cloudy' }] },
          { type: 'tool-result', toolCallId: 'call_t1', content: [{ type: 'text', text: '14:05 CET' }] },
        ],
      });
      expect(request.tools?.[0]).toMatchObject({ type: 'function', name: 'get_weather', strict: true });
      expect(request.tools?.[1]).toMatchObject({ type: 'function', name: 'get_time', strict: false });
      expect(request.toolChoice).toEqual({ type: 'auto' });
      expect(request.parallelToolCalls).toBe(true);
      expect(request.stream).toBe(true);
      expect(request.includeUsage).toBe(true);
      expect(request.sampling).toEqual({ temperature: 0.2, topP: 1 });
      expect(request.metadata).toEqual({ tags: { session: 's-42' } });
      expect(request.extensions).toEqual({ chat: { store: false, prompt_cache_key: 'travel-agent-v2' } });
    });

    it('should decode an AI SDK multimodal body with images, a PDF, audio and a JSON schema', () => {
      const request = decodeChatRequest(fixture('ai-sdk-multimodal'));
      expect(request.system).toEqual([{ type: 'text', text: 'Extract the invoice fields.' }]);
      expect(request.messages[0]?.content).toEqual([
        { type: 'text', text: 'Here is the scan and the PDF.' },
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' }, detail: 'high' },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/logo.jpg' } },
        {
          type: 'file',
          source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' },
          filename: 'invoice.pdf',
        },
        { type: 'audio', data: 'UklGRg==', format: 'wav' },
      ]);
      expect(request.maxOutputTokens).toBe(1024);
      expect(request.sampling).toEqual({ temperature: 0, seed: 7, frequencyPenalty: 0.5, presencePenalty: -0.5 });
      expect(request.stopSequences).toEqual(['END']);
      expect(request.responseFormat).toEqual({
        type: 'json-schema',
        name: 'invoice',
        strict: true,
        schema: {
          type: 'object',
          properties: { total: { type: 'number' } },
          required: ['total'],
          additionalProperties: false,
        },
      });
      expect(request.metadata).toEqual({ userId: 'user-123' });
      expect(request.stream).toBe(false);
      expect(request.extensions).toBeUndefined();
    });

    it('should decode LiteLLM reasoning history into signed reasoning parts placed first', () => {
      const request = decodeChatRequest(fixture('litellm-thinking-history'));
      expect(request.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should call the read tool.', signature: 'EqQBCkYIBhgCKkDsig==' },
          { type: 'reasoning', text: '', redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlx==' },
          { type: 'text', text: 'Let me read it.' },
          { type: 'tool-call', id: 'toolu_01A', name: 'read_file', arguments: '{"path":"package.json"}' },
        ],
      });
      expect(request.messages[3]).toEqual({ role: 'system', content: [{ type: 'text', text: 'Reply in one sentence.' }] });
      expect(request.reasoning).toEqual({ mode: 'enabled', budgetTokens: 4096, effort: 'high' });
      expect(request.maxOutputTokens).toBe(8000);
    });

    it('should keep OpenRouter and vLLM extras: cache_control on parts, unknown parts and unknown fields', () => {
      const request = decodeChatRequest(fixture('openrouter-cline'));
      expect(request.system).toEqual([
        {
          type: 'text',
          text: 'You are Cline, a highly skilled software engineer.',
          extensions: { chat: { cache_control: { type: 'ephemeral' } } },
        },
      ]);
      expect(request.messages[0]?.content).toEqual([
        { type: 'text', text: '<task>Fix the bug</task>' },
        {
          type: 'text',
          text: '<environment_details>...</environment_details>',
          extensions: { chat: { cache_control: { type: 'ephemeral' } } },
        },
        {
          type: 'provider-defined',
          protocol: 'chat',
          kind: 'video_url',
          data: { type: 'video_url', video_url: { url: 'https://example.com/clip.mp4' } },
        },
      ]);
      expect(request.sampling).toEqual({ topK: 40 });
      expect(request.reasoning).toEqual({ budgetTokens: 2048 });
      expect(request.extensions?.chat).toEqual({
        reasoning: { exclude: false },
        provider: { order: ['anthropic'], allow_fallbacks: false },
        transforms: ['middle-out'],
        chat_template_kwargs: { enable_thinking: true },
      });
    });

    it('should decode the deprecated functions API with minted call ids linking call and result', () => {
      const request = decodeChatRequest(fixture('legacy-functions'));
      expect(request.tools).toEqual([
        {
          type: 'function',
          name: 'get_current_weather',
          description: 'Get the current weather',
          parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
          extensions: { chat: { source: 'functions' } },
        },
      ]);
      expect(request.toolChoice).toEqual({ type: 'auto' });
      expect(request.parallelToolCalls).toBe(false);
      expect(request.messages[1]).toEqual({
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            id: 'call_legacy_0',
            name: 'get_current_weather',
            arguments: '{"location":"Boston"}',
            extensions: { chat: { source: 'function_call' } },
          },
        ],
      });
      expect(request.messages[2]).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_legacy_0',
            content: [{ type: 'text', text: '{"temperature":22}' }],
            extensions: { chat: { role: 'function', name: 'get_current_weather' } },
          },
        ],
      });
    });
  });

  describe('system and developer messages', () => {
    it('should keep system messages after the conversation started in place and mark developer ones', () => {
      const request = decodeChatRequest(
        body({
          messages: [
            {
              role: 'system',
              content: [
                { type: 'text', text: 'A' },
                { type: 'text', text: 'B' },
              ],
              name: 'ops',
            },
            { role: 'user', content: 'Hi' },
            { role: 'developer', content: 'Be brief.' },
          ],
        }),
      );
      expect(request.system).toEqual([
        { type: 'text', text: 'A', extensions: { chat: { name: 'ops' } } },
        { type: 'text', text: 'B', extensions: { chat: { name: 'ops' } } },
      ]);
      expect(request.messages[1]).toEqual({
        role: 'system',
        content: [{ type: 'text', text: 'Be brief.' }],
        extensions: { chat: { role: 'developer' } },
      });
    });

    it('should leave system undefined when the body has no leading system message', () => {
      expect(decodeChatRequest(body()).system).toBeUndefined();
    });
  });

  describe('user messages', () => {
    it('should decode a string content as one text part and keep the name in extensions', () => {
      const request = decodeChatRequest(body({ messages: [{ role: 'user', content: 'Hi', name: 'ann' }] }));
      expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }], extensions: { chat: { name: 'ann' } } }]);
    });

    it('should decode file ids and raw base64 file data, keeping prompt_cache_breakpoint', () => {
      const request = decodeChatRequest(
        body({
          messages: [
            {
              role: 'user',
              content: [
                { type: 'file', file: { file_id: 'file-abc' } },
                { type: 'file', file: { file_data: 'JVBERi0=', file_id: 'file-x' } },
                { type: 'text', text: 'x', prompt_cache_breakpoint: { mode: 'explicit', ttl: '30m' } },
              ],
            },
          ],
        }),
      );
      expect(request.messages[0]?.content).toEqual([
        { type: 'file', source: { kind: 'file-id', fileId: 'file-abc' } },
        {
          type: 'file',
          source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' },
          extensions: { chat: { file: { file_id: 'file-x' } } },
        },
        { type: 'text', text: 'x', extensions: { chat: { prompt_cache_breakpoint: { mode: 'explicit', ttl: '30m' } } } },
      ]);
    });
  });

  describe('assistant messages', () => {
    it('should decode reasoning_content alone, refusals and custom tool calls', () => {
      const request = decodeChatRequest(
        body({
          messages: [
            { role: 'user', content: 'Hi' },
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'No.' },
                { type: 'refusal', refusal: 'I cannot.' },
              ],
              reasoning_content: 'thinking…',
              refusal: 'Also no.',
              audio: { id: 'audio_1' },
              tool_calls: [{ id: 'call_c', type: 'custom', custom: { name: 'grep', input: 'foo' } }],
            },
          ],
        }),
      );
      expect(request.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking…' },
          { type: 'text', text: 'No.' },
          { type: 'refusal', text: 'I cannot.' },
          { type: 'refusal', text: 'Also no.' },
          {
            type: 'provider-defined',
            protocol: 'chat',
            kind: 'custom_tool_call',
            data: { id: 'call_c', type: 'custom', custom: { name: 'grep', input: 'foo' } },
          },
        ],
        extensions: { chat: { audio: { id: 'audio_1' } } },
      });
    });

    it('should not emit an empty text part for empty content next to tool calls', () => {
      const request = decodeChatRequest(
        body({
          messages: [
            { role: 'user', content: 'Hi' },
            { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '' } }] },
          ],
        }),
      );
      expect(request.messages[1]?.content).toEqual([{ type: 'tool-call', id: 'c1', name: 'f', arguments: '' }]);
    });
  });

  describe('unknown fields', () => {
    it('should keep unknown message fields and a reasoning_content that differs from the thinking blocks', () => {
      const request = decodeChatRequest(
        body({
          messages: [
            { role: 'user', content: 'Hi' },
            {
              role: 'assistant',
              content: 'Yes',
              reasoning_content: 'summary only',
              thinking_blocks: [{ type: 'thinking', thinking: 'full text', signature: 's', cache_control: { type: 'ephemeral' } }],
              reasoning_details: [{ type: 'reasoning.text', text: 'full text' }],
            },
            { role: 'tool', tool_call_id: 'c1', content: 'ok', cache_control: { type: 'ephemeral' } },
          ],
        }),
      );
      expect(request.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'full text', signature: 's', extensions: { chat: { cache_control: { type: 'ephemeral' } } } },
          { type: 'text', text: 'Yes' },
        ],
        extensions: {
          chat: { reasoning_details: [{ type: 'reasoning.text', text: 'full text' }], reasoning_content: 'summary only' },
        },
      });
      expect(request.messages[2]?.content).toEqual([
        {
          type: 'tool-result',
          toolCallId: 'c1',
          content: [{ type: 'text', text: 'ok' }],
          extensions: { chat: { cache_control: { type: 'ephemeral' } } },
        },
      ]);
    });
  });

  describe('request fields', () => {
    it('should map tool choices, custom tools and allowed_tools', () => {
      const request = decodeChatRequest(
        body({
          tools: [
            { type: 'custom', custom: { name: 'grep', format: { type: 'grammar', grammar: { definition: 'x', syntax: 'lark' } } } },
            { type: 'function', function: { name: 'f' }, cache_control: { type: 'ephemeral' } },
          ],
          tool_choice: {
            type: 'allowed_tools',
            allowed_tools: {
              mode: 'required',
              tools: [
                { type: 'function', function: { name: 'f' } },
                { type: 'custom', custom: { name: 'grep' } },
              ],
            },
          },
        }),
      );
      expect(request.tools).toEqual([
        {
          type: 'provider-defined',
          protocol: 'chat',
          kind: 'custom',
          name: 'grep',
          definition: {
            type: 'custom',
            custom: { name: 'grep', format: { type: 'grammar', grammar: { definition: 'x', syntax: 'lark' } } },
          },
        },
        { type: 'function', name: 'f', extensions: { chat: { cache_control: { type: 'ephemeral' } } } },
      ]);
      expect(request.toolChoice).toEqual({ type: 'required', allowedTools: ['f', 'grep'] });
      expect(decodeChatRequest(body({ tool_choice: { type: 'function', function: { name: 'f' } } })).toolChoice).toEqual({
        type: 'tool',
        name: 'f',
      });
      expect(decodeChatRequest(body({ function_call: { name: 'g' } })).toolChoice).toEqual({ type: 'tool', name: 'g' });
    });

    it('should prefer max_completion_tokens over max_tokens and keep the superseded alias', () => {
      const request = decodeChatRequest(body({ max_tokens: 10, max_completion_tokens: 20 }));
      expect(request.maxOutputTokens).toBe(20);
      expect(request.extensions?.chat).toEqual({ max_tokens: 10 });
    });

    it('should map reasoning_effort none to a disabled reasoning mode', () => {
      expect(decodeChatRequest(body({ reasoning_effort: 'none' })).reasoning).toEqual({ mode: 'disabled', effort: 'none' });
      expect(decodeChatRequest(body({ reasoning_effort: 'minimal' })).reasoning).toEqual({ effort: 'minimal' });
    });

    it('should prefer safety_identifier as user id and keep user in extensions', () => {
      const request = decodeChatRequest(body({ user: 'u1', safety_identifier: 'hash-1' }));
      expect(request.metadata).toEqual({ userId: 'hash-1' });
      expect(request.extensions?.chat).toEqual({ user: 'u1' });
    });

    it('should map response formats text and json_object', () => {
      expect(decodeChatRequest(body({ response_format: { type: 'text' } })).responseFormat).toEqual({ type: 'text' });
      expect(decodeChatRequest(body({ response_format: { type: 'json_object' } })).responseFormat).toEqual({ type: 'json' });
      expect(decodeChatRequest(body({ stop: 'x' })).stopSequences).toEqual(['x']);
    });

    it('should keep answer-changing fields without a canonical home in extensions under their wire names', () => {
      const fields = {
        n: 2,
        logprobs: true,
        top_logprobs: 3,
        logit_bias: { '50256': -100 },
        modalities: ['text', 'audio'],
        audio: { format: 'wav', voice: 'alloy' },
        prediction: { type: 'content', content: 'old code' },
        web_search_options: { search_context_size: 'low' },
        moderation: { model: 'omni-moderation-latest' },
        verbosity: 'low',
        service_tier: 'flex',
        prompt_cache_retention: '24h',
        prompt_cache_options: { mode: 'explicit', ttl: '30m' },
        stream_options: { include_usage: false, include_obfuscation: false },
      };
      const request = decodeChatRequest(body(fields));
      expect(request.includeUsage).toBe(false);
      expect(request.extensions?.chat).toEqual({ ...fields, stream_options: { include_obfuscation: false } });
    });

    it('should treat null fields as absent', () => {
      const request = decodeChatRequest(body({ temperature: null, stop: null, tools: null, user: null, stream: null }));
      expect(request).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false });
    });
  });

  describe('invalid bodies', () => {
    it.each([
      [null, undefined],
      [{ messages: [] }, 'model'],
      [{ model: 'm' }, 'messages'],
      [body({ messages: [{ role: 'bot', content: 'x' }] }), 'messages[0].role'],
      [
        body({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
            { role: 'user', content: 5 },
          ],
        }),
        'messages[2].content',
      ],
      [
        body({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { detail: 'low' } }] }] }),
        'messages[0].content[0].image_url.url',
      ],
      [body({ messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] }), 'messages[0].content[0].file'],
      [body({ messages: [{ role: 'tool', content: 'x' }] }), 'messages[0].tool_call_id'],
      [body({ tools: [{ type: 'function', function: { name: 3 } }] }), 'tools[0].function.name'],
      [body({ tool_choice: 'sometimes' }), 'tool_choice'],
      [body({ max_tokens: 1.5 }), 'max_tokens'],
      [body({ reasoning_effort: 'extreme' }), 'reasoning_effort'],
      [body({ messages: [{ role: 'function', name: 'f', content: 'x' }] }), 'messages[0].name'],
    ])('should reject %j naming %s', (input, param) => {
      const error = decodeError(input);
      expect(error.kind).toBe('invalid_request');
      expect(error.code).toBe('INVALID_REQUEST_BODY');
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
    });

    it('should say what was expected', () => {
      const error = decodeError(
        body({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
            { role: 'user', content: 5 },
          ],
        }),
      );
      expect(error.message).toBe('Invalid request: messages[2].content: expected a string or an array of content parts.');
      expect(decodeError(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 1 }] }] })).message).toBe(
        'Invalid request: messages[0].content[0].text: expected string, received number.',
      );
      expect(decodeError({ messages: [] }).message).toBe('Invalid request: model: expected string (missing).');
    });
  });
});
