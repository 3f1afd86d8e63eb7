import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { decodeResponsesRequest } from '../../../src/protocols/responses/request.js';
import { encodeResponsesRequest } from '../../../src/protocols/responses/request-encoder.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const request = (overrides: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'gpt-5',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  ...overrides,
});

const encode = (overrides: Partial<CanonicalRequest> = {}, stream = false) => encodeResponsesRequest(request(overrides), { stream });

describe('encodeResponsesRequest', () => {
  describe('same-protocol passthrough', () => {
    it('should send a Codex request back as it came (ids, namespaces, custom tools, hosted tools, extra fields)', () => {
      const body = jsonFixture('responses', 'codex-request');
      const expected = structuredClone(body) as { input: Record<string, unknown>[] };
      // null means "not set" on this wire, and replayed assistant messages get their status.
      delete expected.input[3]!.content;
      expected.input[8]!.status = 'completed';
      expect(encodeResponsesRequest(decodeResponsesRequest(body), { stream: true })).toEqual(expected);
    });

    it('should keep the AI SDK request: reasoning replay, parallel calls, structured output, metadata', () => {
      const body = jsonFixture('responses', 'ai-sdk-request');
      const out = encodeResponsesRequest(decodeResponsesRequest(body), { stream: false });
      const expected = structuredClone(body) as { input: Record<string, unknown>[] };
      expected.input[0] = { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'You answer in JSON.' }] };
      expected.input[1]!.type = 'message';
      expected.input[1]!.content = [
        { type: 'input_text', text: 'What is in this picture, and how is the weather there?' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        { type: 'input_file', filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQ=' },
      ];
      expected.input[3] = {
        type: 'message',
        role: 'assistant',
        id: 'msg_68c2',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Let me check the weather.', annotations: [] }],
      };
      expect(out).toEqual(expected);
    });

    it('should pass previous_response_id, conversation and unknown fields through', () => {
      const decoded = decodeResponsesRequest({
        model: 'gpt-5',
        input: 'Next',
        previous_response_id: 'resp_prev',
        truncation: 'auto',
        store: true,
        future_field: { a: 1 },
      });
      expect(encodeResponsesRequest(decoded, { stream: false })).toMatchObject({
        previous_response_id: 'resp_prev',
        truncation: 'auto',
        store: true,
        future_field: { a: 1 },
      });
    });
  });

  describe('state', () => {
    it('should send store: false when the caller did not set store', () => {
      expect(encode().store).toBe(false);
    });

    it('should ask for a stream only when streaming, and drop stream_options otherwise', () => {
      const decoded = decodeResponsesRequest({ model: 'm', input: 'x', stream_options: { include_obfuscation: false } });
      expect(encodeResponsesRequest(decoded, { stream: false })).not.toHaveProperty('stream_options');
      expect(encodeResponsesRequest(decoded, { stream: false })).not.toHaveProperty('stream');
      expect(encodeResponsesRequest(decoded, { stream: true })).toMatchObject({
        stream: true,
        stream_options: { include_obfuscation: false },
      });
    });
  });

  describe('system instructions', () => {
    it('should join system parts from another protocol into instructions', () => {
      const out = encode({
        system: [
          { type: 'text', text: 'You are terse.' },
          { type: 'text', text: 'Answer in French.' },
        ],
      });
      expect(out.instructions).toBe('You are terse.\n\nAnswer in French.');
      expect(out.input).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }]);
    });

    it('should keep a system message in the middle of the conversation in its place', () => {
      const out = encode({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
          { role: 'system', content: [{ type: 'text', text: 'Now be formal.' }] },
        ],
      });
      expect((out.input as unknown[])[1]).toEqual({
        type: 'message',
        role: 'system',
        content: [{ type: 'input_text', text: 'Now be formal.' }],
      });
    });
  });

  describe('sampling and limits', () => {
    it('should map max tokens, temperature, top_p, parallel tool calls and the end-user id', () => {
      expect(
        encode({
          maxOutputTokens: 300,
          sampling: { temperature: 0.2, topP: 0.8 },
          parallelToolCalls: false,
          metadata: { userId: 'u-1', tags: { a: 'b' } },
        }),
      ).toMatchObject({
        max_output_tokens: 300,
        temperature: 0.2,
        top_p: 0.8,
        parallel_tool_calls: false,
        safety_identifier: 'u-1',
        metadata: { a: 'b' },
      });
    });

    it('should hash an end-user id longer than OpenAI allows, the same way every time', () => {
      const userId = `user_${'a'.repeat(64)}_account_1234_session_5678`;
      const first = encode({ metadata: { userId } }).safety_identifier as string;
      expect(first.length).toBeLessThanOrEqual(64);
      expect(first).toBe(encode({ metadata: { userId } }).safety_identifier);
    });

    it('should carry Chat hints that mean the same on Responses', () => {
      const out = encode({ extensions: { chat: { prompt_cache_key: 'k1', service_tier: 'flex', verbosity: 'low', store: true } } });
      expect(out).toMatchObject({ prompt_cache_key: 'k1', service_tier: 'flex', text: { verbosity: 'low' }, store: false });
    });
  });

  describe('what Responses cannot carry', () => {
    it('should refuse stop sequences with a 400 naming stop and the model', () => {
      const error = gatewayErrorOf(() => encode({ stopSequences: ['\n\n'] }));
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE', param: 'stop', retryable: false });
      expect(error.message).toContain("'gpt-5'");
      expect(error.message).toContain('stop');
    });

    it('should refuse top_k, seed and non-zero penalties', () => {
      expect(gatewayErrorOf(() => encode({ sampling: { topK: 40 } })).param).toBe('top_k');
      expect(gatewayErrorOf(() => encode({ sampling: { seed: 7 } })).param).toBe('seed');
      expect(gatewayErrorOf(() => encode({ sampling: { presencePenalty: 0.5 } })).param).toBe('presence_penalty');
      expect(gatewayErrorOf(() => encode({ sampling: { frequencyPenalty: 1 } })).param).toBe('frequency_penalty');
    });

    it('should accept penalties of zero, which change nothing', () => {
      expect(encode({ sampling: { presencePenalty: 0, frequencyPenalty: 0 } })).not.toHaveProperty('presence_penalty');
    });

    it("should refuse another protocol's provider-defined tool", () => {
      const error = gatewayErrorOf(() =>
        encode({
          tools: [{ type: 'provider-defined', protocol: 'messages', kind: 'web_search_20250305', name: 'web_search', definition: {} }],
        }),
      );
      expect(error).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'tools' });
      expect(error.message).toContain('web_search_20250305');
    });
  });

  describe('tools', () => {
    it('should flatten functions, send strict false when unset and keep hosted Responses tools verbatim', () => {
      const out = encode({
        tools: [
          { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
          { type: 'function', name: 'strict_one', parameters: { type: 'object' }, strict: true },
          { type: 'function', name: 'no_args' },
          { type: 'provider-defined', protocol: 'responses', kind: 'web_search', definition: { type: 'web_search' } },
        ],
        toolChoice: { type: 'required', allowedTools: ['get_weather'] },
      });
      expect(out.tools).toEqual([
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} }, strict: false },
        { type: 'function', name: 'strict_one', parameters: { type: 'object' }, strict: true },
        { type: 'function', name: 'no_args', parameters: null, strict: false },
        { type: 'web_search' },
      ]);
      expect(out.tool_choice).toEqual({ type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'get_weather' }] });
    });

    it('should send a forced tool as the flat function choice', () => {
      expect(encode({ tools: [{ type: 'function', name: 'f' }], toolChoice: { type: 'tool', name: 'f' } }).tool_choice).toEqual({
        type: 'function',
        name: 'f',
      });
    });
  });

  describe('structured output', () => {
    it('should put a JSON schema under text.format, flat', () => {
      const schema = { type: 'object', properties: { a: { type: 'string' } } };
      expect(encode({ responseFormat: { type: 'json-schema', schema, strict: true } }).text).toEqual({
        format: { type: 'json_schema', name: 'response', schema, strict: true },
      });
      expect(encode({ responseFormat: { type: 'json' } }).text).toEqual({ format: { type: 'json_object' } });
    });
  });

  describe('reasoning', () => {
    it('should send effort and summary and ask for encrypted reasoning', () => {
      expect(encode({ reasoning: { effort: 'high', summary: 'detailed' } })).toMatchObject({
        reasoning: { effort: 'high', summary: 'detailed' },
        include: ['reasoning.encrypted_content'],
      });
    });

    it('should turn an Anthropic thinking budget into an effort with an automatic summary', () => {
      expect(encode({ reasoning: { mode: 'enabled', budgetTokens: 1024 } }).reasoning).toEqual({ effort: 'low', summary: 'auto' });
      expect(encode({ reasoning: { mode: 'enabled', budgetTokens: 3000 } }).reasoning).toEqual({ effort: 'medium', summary: 'auto' });
      expect(encode({ reasoning: { mode: 'enabled', budgetTokens: 16000, display: 'omitted' } }).reasoning).toEqual({ effort: 'high' });
    });

    it('should send effort none for disabled thinking and not ask for encrypted reasoning', () => {
      const out = encode({ reasoning: { mode: 'disabled' } });
      expect(out.reasoning).toEqual({ effort: 'none' });
      expect(out).not.toHaveProperty('include');
    });

    it('should not repeat reasoning.encrypted_content when the caller included it', () => {
      const decoded = decodeResponsesRequest({
        model: 'm',
        input: 'x',
        reasoning: { effort: 'low' },
        include: ['reasoning.encrypted_content', 'web_search_call.action.sources'],
      });
      expect(encodeResponsesRequest(decoded, { stream: false }).include).toEqual([
        'reasoning.encrypted_content',
        'web_search_call.action.sources',
      ]);
    });
  });

  describe('strict function tools', () => {
    it('should leave strict unset for a Responses caller that left it unset, and keep explicit values', () => {
      const decoded = decodeResponsesRequest({
        model: 'm',
        input: 'x',
        tools: [
          { type: 'function', name: 'f', parameters: { type: 'object' } },
          { type: 'function', name: 'g', strict: true, parameters: { type: 'object' } },
        ],
      });
      const tools = encodeResponsesRequest(decoded, { stream: false }).tools as Array<Record<string, unknown>>;
      expect(tools.map((tool) => tool.strict)).toEqual([null, true]);
    });

    it('should send strict: false for a tool from another protocol that has no strict setting', () => {
      const request: CanonicalRequest = {
        model: 'm',
        stream: false,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
        tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      };
      const tools = encodeResponsesRequest(request, { stream: false }).tools as Array<Record<string, unknown>>;
      expect(tools[0]?.strict).toBe(false);
    });
  });
});
