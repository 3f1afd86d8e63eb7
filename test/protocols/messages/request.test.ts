import { describe, expect, it } from 'vitest';
import { decodeMessagesRequest } from '../../../src/protocols/messages/request.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const fixture = (name: string) => jsonFixture('messages', name);

const minimal = { model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

const decodeError = (body: unknown) => gatewayErrorOf(() => decodeMessagesRequest(body));

describe('decodeMessagesRequest', () => {
  describe('minimal body', () => {
    it('should map model, max_tokens, messages and default stream to false', () => {
      expect(decodeMessagesRequest(minimal)).toEqual({
        model: 'claude-x',
        maxOutputTokens: 100,
        stream: false,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      });
    });

    it('should accept max_tokens 0 (cache pre-warm)', () => {
      expect(decodeMessagesRequest({ ...minimal, max_tokens: 0 }).maxOutputTokens).toBe(0);
    });
  });

  describe('real Claude Code bodies', () => {
    it('should decode the first request: cached system blocks, 21 tools, adaptive thinking and effort', () => {
      const request = decodeMessagesRequest(fixture('claude-code-first-request'));
      expect(request.stream).toBe(true);
      expect(request.maxOutputTokens).toBe(64000);
      expect(request.system).toHaveLength(3);
      expect(request.system?.[1]?.extensions).toEqual({ messages: { cache_control: { type: 'ephemeral' } } });
      expect(request.system?.[2]?.extensions).toEqual({ messages: { cache_control: { type: 'ephemeral', ttl: '1h' } } });
      expect(request.tools).toHaveLength(21);
      expect(request.tools?.every((tool) => tool.type === 'function')).toBe(true);
      expect(request.reasoning).toEqual({ mode: 'adaptive', display: 'omitted', effort: 'high' });
      expect(request.extensions).toEqual({
        messages: { context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] } },
      });
    });

    it('should keep metadata.user_id as the JSON string it is', () => {
      const userId = decodeMessagesRequest(fixture('claude-code-first-request')).metadata?.userId;
      expect(JSON.parse(userId ?? '')).toMatchObject({ session_id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' });
    });

    it('should put defer_loading, eager_input_streaming and cache_control of tools in tool extensions', () => {
      const tools = decodeMessagesRequest(fixture('claude-code-first-request')).tools ?? [];
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('Edit')).toMatchObject({ extensions: { messages: { eager_input_streaming: true } } });
      expect(byName.get('mcp__github__get_pull_request')).toMatchObject({
        type: 'function',
        extensions: { messages: { defer_loading: true, cache_control: { type: 'ephemeral' } } },
      });
    });

    it('should decode a tool turn: signature-only thinking, parallel results, tool_reference results', () => {
      const request = decodeMessagesRequest(fixture('claude-code-tool-turn'));
      expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'tool']);
      expect(request.messages[1]?.content[0]).toEqual({ type: 'reasoning', text: '', signature: 'EuYBCkYIBxgCKkDomitted-signature-1' });
      expect(request.messages[2]?.content).toHaveLength(2);
      expect(request.messages[5]?.content[0]).toMatchObject({
        type: 'tool-result',
        toolCallId: 'toolu_01A3',
        content: [
          {
            type: 'provider-defined',
            protocol: 'messages',
            kind: 'tool_reference',
            data: { type: 'tool_reference', tool_name: 'mcp__github__get_pull_request' },
          },
        ],
      });
    });
  });

  describe('request options', () => {
    const request = decodeMessagesRequest(fixture('all-fields'));

    it('should map sampling, stop sequences, metadata and a string system prompt', () => {
      expect(request.sampling).toEqual({ temperature: 0.5, topP: 0.9, topK: 40 });
      expect(request.stopSequences).toEqual(['###']);
      expect(request.metadata).toEqual({ userId: 'user-42' });
      expect(request.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    });

    it('should map enabled thinking with budget and display', () => {
      expect(request.reasoning).toEqual({ mode: 'enabled', budgetTokens: 2048, display: 'summarized' });
    });

    it('should map output_config.format json_schema to a json-schema response format', () => {
      expect(request.responseFormat).toEqual({
        type: 'json-schema',
        schema: { type: 'object', properties: { answer: { type: 'string' } } },
      });
    });

    it('should map tool_choice any with disable_parallel_tool_use to required and no parallel calls', () => {
      expect(request.toolChoice).toEqual({ type: 'required' });
      expect(request.parallelToolCalls).toBe(false);
    });

    it('should keep fields without a canonical home, and unknown fields, in extensions under their wire names', () => {
      expect(request.extensions?.messages).toEqual({
        cache_control: { type: 'ephemeral' },
        service_tier: 'standard_only',
        container: 'container_123',
        diagnostics: { previous_message_id: 'msg_prev' },
        inference_geo: 'us',
        speed: 'fast',
        mcp_servers: [{ type: 'url', name: 'github', url: 'https://mcp.example.com' }],
        x_future_field: { keep: true },
      });
    });

    it('should map disabled thinking and keep between_tools thinking whole in extensions', () => {
      expect(decodeMessagesRequest({ ...minimal, thinking: { type: 'disabled' } }).reasoning).toEqual({ mode: 'disabled' });
      const betweenTools = decodeMessagesRequest({ ...minimal, thinking: { type: 'between_tools' } });
      expect(betweenTools.reasoning).toBeUndefined();
      expect(betweenTools.extensions?.messages).toEqual({ thinking: { type: 'between_tools' } });
    });

    it('should keep unknown keys of partly mapped objects under the object name', () => {
      const request = decodeMessagesRequest({
        ...minimal,
        metadata: { user_id: null, tenant: 't1' },
        output_config: { effort: 'max', verbosity: 'low' },
        tool_choice: { type: 'auto', disable_parallel_tool_use: false, priority: 1 },
      });
      expect(request.metadata).toBeUndefined();
      expect(request.reasoning).toEqual({ effort: 'max' });
      expect(request.parallelToolCalls).toBe(true);
      expect(request.extensions?.messages).toEqual({
        metadata: { tenant: 't1' },
        output_config: { verbosity: 'low' },
        tool_choice: { priority: 1 },
      });
    });
  });

  describe('invalid bodies', () => {
    it.each([
      ['a non-object body', 'hello', undefined],
      ['a missing model', { max_tokens: 1, messages: [] }, 'model'],
      ['a missing max_tokens', { model: 'm', messages: [] }, 'max_tokens'],
      ['a negative max_tokens', { ...minimal, max_tokens: -1 }, 'max_tokens'],
      ['a fractional max_tokens', { ...minimal, max_tokens: 1.5 }, 'max_tokens'],
      ['an unknown role', { ...minimal, messages: [{ role: 'bot', content: 'x' }] }, 'messages[0].role'],
      ['numeric content', { ...minimal, messages: [minimal.messages[0], { role: 'user', content: 5 }] }, 'messages[1].content'],
      [
        'a text block without text',
        { ...minimal, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
        'messages[0].content[0].text',
      ],
      [
        'a string tool input',
        { ...minimal, messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'b', input: '{}' }] }] },
        'messages[0].content[0].input',
      ],
      ['a tool without input_schema', { ...minimal, tools: [{ name: 'a' }] }, 'tools[0].input_schema'],
      ['a server tool without name', { ...minimal, tools: [{ type: 'web_search_20250305' }] }, 'tools[0].name'],
      ['tool_choice tool without name', { ...minimal, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
      ['enabled thinking without budget', { ...minimal, thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
      ['an unknown effort', { ...minimal, output_config: { effort: 'huge' } }, 'output_config.effort'],
      ['a non-text system block', { ...minimal, system: [{ type: 'image' }] }, 'system[0].type'],
    ])('should reject %s with param %s', (_name, body, param) => {
      const error = decodeError(body);
      expect(error.kind).toBe('invalid_request');
      expect(error.code).toBe('INVALID_REQUEST_BODY');
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
    });

    it('should say what was expected in the message', () => {
      const error = decodeError({ ...minimal, messages: [minimal.messages[0], minimal.messages[0], { role: 'user', content: 5 }] });
      expect(error.message).toBe('Invalid request: messages[2].content: expected a string or an array of content blocks.');
    });

    it('should name a near miss of a missing required field', () => {
      expect(decodeError({ model: 'm', max_token: 10, messages: minimal.messages }).message).toBe(
        "Invalid request: max_tokens: is required (expected a number). The request has 'max_token': did you mean 'max_tokens'?",
      );
      expect(decodeError({ model: 'm', max_tokens: 10, mesages: minimal.messages }).message).toContain(
        "The request has 'mesages': did you mean 'messages'?",
      );
      // A field of the API is no typo, and nothing unlike the missing one is named.
      expect(decodeError({ model: 'm', messages: minimal.messages, metadata: {} }).message).toBe(
        'Invalid request: max_tokens: is required (expected a number).',
      );
      expect(decodeError({ model: 'm', messages: minimal.messages, zzz: 1 }).message).toBe(
        'Invalid request: max_tokens: is required (expected a number).',
      );
    });
  });
});
