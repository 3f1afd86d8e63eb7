import { describe, expect, it } from 'vitest';
import { decodeMessagesRequest } from '../../../src/protocols/messages/request.js';
import { encodeMessagesRequest } from '../../../src/protocols/messages/request-encoder.js';
import { encode, encodeFailure } from './request-test-kit.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const fixture = (name: string) => jsonFixture('messages', name);

/** `tool_result.content` as one plain text block is the same as that text as a string (the encoder sends the string). */
function withStringToolResults(body: Record<string, unknown>): Record<string, unknown> {
  const messages = (body.messages as Array<{ content: unknown }>).map((message) => ({
    ...message,
    content: Array.isArray(message.content)
      ? message.content.map((block: Record<string, unknown>) => {
          const content = block.content;
          const only = Array.isArray(content) && content.length === 1 ? (content[0] as Record<string, unknown>) : undefined;
          return block.type === 'tool_result' && only?.type === 'text' && Object.keys(only).length === 2
            ? { ...block, content: only.text }
            : block;
        })
      : message.content,
  }));
  return { ...body, messages };
}

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('encodeMessagesRequest', () => {
  describe('max_tokens', () => {
    it('should fill the default when the request sets no limit, and keep a limit it sets', () => {
      expect(encode({}, 4096).max_tokens).toBe(4096);
      expect(encode({ maxOutputTokens: 300 }).max_tokens).toBe(300);
      expect(encode({ maxOutputTokens: 0 }).max_tokens).toBe(0);
    });

    it('should keep max_tokens above the thinking budget by adding the budget on top', () => {
      const body = encode({ maxOutputTokens: 1000, reasoning: { effort: 'high' } });
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
      expect(body.max_tokens).toBe(5096);
      expect(encode({ maxOutputTokens: 20000, reasoning: { effort: 'high' } }).max_tokens).toBe(20000);
    });
  });

  describe('thinking', () => {
    it.each([
      ['minimal', 1024],
      ['low', 1024],
      ['medium', 2048],
      ['high', 4096],
      ['xhigh', 8192],
    ] as const)('should turn effort %s without a mode into a budget of %i', (effort, budget) => {
      const body = encode({ reasoning: { effort } });
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      expect(body.output_config).toBeUndefined();
    });

    it('should disable thinking for effort none and for mode disabled', () => {
      expect(encode({ reasoning: { effort: 'none' } }).thinking).toEqual({ type: 'disabled' });
      expect(encode({ reasoning: { mode: 'disabled' } }).thinking).toEqual({ type: 'disabled' });
    });

    it('should send adaptive thinking with its display and the effort in output_config', () => {
      const body = encode({ reasoning: { mode: 'adaptive', effort: 'high', display: 'omitted' } });
      expect(body.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
      expect(body.output_config).toEqual({ effort: 'high' });
    });

    it('should raise a budget below 1024 to 1024', () => {
      expect(encode({ reasoning: { mode: 'enabled', budgetTokens: 500 } }).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    });

    it('should send no thinking when the request asks for none', () => {
      expect(encode({ reasoning: { summary: 'auto' } }).thinking).toBeUndefined();
      expect(encode().thinking).toBeUndefined();
    });
  });

  describe('sampling', () => {
    it('should clamp temperature to 1 and keep top_p and top_k', () => {
      expect(encode({ sampling: { temperature: 1.7, topP: 0.8, topK: 20 } })).toMatchObject({ temperature: 1, top_p: 0.8, top_k: 20 });
    });

    it('should leave out temperature and top_k and raise top_p while thinking runs', () => {
      const body = encode({ sampling: { temperature: 0.2, topP: 0.5, topK: 5 }, reasoning: { effort: 'low' } });
      expect(body).not.toHaveProperty('temperature');
      expect(body).not.toHaveProperty('top_k');
      expect(body.top_p).toBe(0.95);
    });

    it('should refuse penalties with a 400 naming the model, and leave out seed', () => {
      expect(encodeFailure({ sampling: { frequencyPenalty: 0.5 } })).toMatchObject({
        status: 400,
        code: 'UNSUPPORTED_FEATURE',
        param: 'frequency_penalty',
      });
      expect(encodeFailure({ sampling: { presencePenalty: 1 } }).message).toContain("'claude-gateway'");
      expect(encode({ sampling: { presencePenalty: 0, seed: 7 } })).not.toHaveProperty('seed');
    });
  });

  describe('response format', () => {
    it('should refuse JSON mode without a schema', () => {
      const error = encodeFailure({ responseFormat: { type: 'json' } });
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE', param: 'response_format' });
      expect(error.message).toContain('claude-gateway');
    });

    it('should send a JSON schema as output_config.format', () => {
      const schema = { type: 'object', properties: { answer: { type: 'string' } }, additionalProperties: false };
      expect(encode({ responseFormat: { type: 'json-schema', name: 'answer', schema, strict: true } }).output_config).toEqual({
        format: { type: 'json_schema', schema },
      });
    });
  });

  describe('tools and tool choice', () => {
    it('should send functions as custom tools, a no-argument function with an empty object schema', () => {
      const body = encode({ tools: [weather, { type: 'function', name: 'now', description: 'Time', strict: true }] });
      expect(body.tools).toEqual([
        { name: 'get_weather', input_schema: weather.parameters },
        { name: 'now', description: 'Time', input_schema: { type: 'object', properties: {} }, strict: true },
      ]);
      expect(body).not.toHaveProperty('tool_choice');
    });

    it.each([
      [{ type: 'auto' }, { type: 'auto' }],
      [{ type: 'required' }, { type: 'any' }],
      [{ type: 'none' }, { type: 'none' }],
      [
        { type: 'tool', name: 'get_weather' },
        { type: 'tool', name: 'get_weather' },
      ],
    ] as const)('should map choice %o to %o', (choice, wire) => {
      expect(encode({ tools: [weather], toolChoice: choice }).tool_choice).toEqual(wire);
    });

    it('should turn parallelToolCalls false into disable_parallel_tool_use on an auto choice', () => {
      expect(encode({ tools: [weather], parallelToolCalls: false }).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
      expect(encode({ tools: [weather], toolChoice: { type: 'required' }, parallelToolCalls: false }).tool_choice).toEqual({
        type: 'any',
        disable_parallel_tool_use: true,
      });
    });

    it('should downgrade a forced tool choice to auto while thinking runs', () => {
      expect(encode({ tools: [weather], toolChoice: { type: 'required' }, reasoning: { effort: 'medium' } }).tool_choice).toEqual({
        type: 'auto',
      });
      expect(
        encode({ tools: [weather], toolChoice: { type: 'tool', name: 'get_weather' }, reasoning: { mode: 'adaptive' } }).tool_choice,
      ).toEqual({
        type: 'auto',
      });
    });

    it('should send only the allowed tools of a narrowed choice', () => {
      const body = encode({
        tools: [weather, { type: 'function', name: 'other' }],
        toolChoice: { type: 'required', allowedTools: ['other'] },
      });
      expect(body.tools).toEqual([{ name: 'other', input_schema: { type: 'object', properties: {} } }]);
      expect(body.tool_choice).toEqual({ type: 'any' });
    });

    it("should pass Anthropic's own tools verbatim and refuse another protocol's hosted tool", () => {
      const server = {
        type: 'provider-defined' as const,
        protocol: 'messages' as const,
        kind: 'web_search_20250305',
        name: 'web_search',
        definition: { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      };
      expect(encode({ tools: [server] }).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }]);
      const error = encodeFailure({
        tools: [{ type: 'provider-defined', protocol: 'responses', kind: 'web_search', definition: { type: 'web_search' } }],
      });
      expect(error).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'tools' });
      expect(error.message).toContain('web_search');
    });

    it('should refuse namespaced tools', () => {
      expect(encodeFailure({ tools: [{ ...weather, namespace: 'mcp' }] })).toMatchObject({ code: 'UNSUPPORTED_FEATURE' });
    });
  });

  describe('other fields', () => {
    it('should send stop sequences, the end-user id and stream', () => {
      const body = encode({ stopSequences: ['###'], metadata: { userId: 'u-1', tags: { team: 'a' } }, stream: true });
      expect(body).toMatchObject({ stop_sequences: ['###'], metadata: { user_id: 'u-1' }, stream: true });
      expect(encode()).not.toHaveProperty('stream');
    });
  });

  describe('same-protocol passthrough', () => {
    it.each(['claude-code-first-request', 'claude-code-tool-turn'])('should send the %s body back as it came', (name) => {
      const body = fixture(name);
      expect(encodeMessagesRequest(decodeMessagesRequest(body), { defaultMaxTokens: 4096 })).toEqual(withStringToolResults(body));
    });

    it('should keep every extension field of the all-fields body, changing only what Anthropic would refuse', () => {
      const body = fixture('all-fields');
      const encoded = encodeMessagesRequest(decodeMessagesRequest(body), { defaultMaxTokens: 4096 });
      const { temperature: _t, top_k: _k, stream: _s, messages, system: _system, ...kept } = body;
      expect(encoded).toMatchObject({ ...kept, top_p: 0.95, tool_choice: { type: 'auto', disable_parallel_tool_use: true } });
      expect(encoded.system).toEqual([
        { type: 'text', text: 'You are terse.' },
        { type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } },
      ]);
      const wireMessages = messages as Array<Record<string, unknown>>;
      expect(encoded.messages).toEqual([
        wireMessages[1],
        wireMessages[2],
        { role: 'user', content: [{ type: 'text', text: 'Thanks!' }], x_client_trace: 't-1' },
      ]);
    });
  });
});
