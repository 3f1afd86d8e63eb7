import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../../src/canonical/index.js';
import {
  chatCodec,
  decodeChatRequest,
  encodeChatRequest,
  openAIChatDialect,
  type ChatDialect,
} from '../../../src/protocols/chat-completions/index.js';
import { decodeMessagesRequest } from '../../../src/protocols/messages/index.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const hintFields = chatCodec.hintFields;
const encode = (request: CanonicalRequest, dialect: ChatDialect = openAIChatDialect) => encodeChatRequest(request, { dialect, hintFields });
const chat = (body: Record<string, unknown>) =>
  decodeChatRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...body });
const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
const base: CanonicalRequest = { model: 'gpt-4o', messages: [user('Hi')], stream: false };

const compatible: ChatDialect = {
  ...openAIChatDialect,
  maxTokensField: 'max_tokens',
  developerRole: false,
  textPartArrays: false,
  userField: 'user',
  metadata: false,
};

describe('encodeChatRequest', () => {
  describe('request fields', () => {
    it('should send the output cap as max_completion_tokens to OpenAI and max_tokens where the dialect says', () => {
      expect(encode({ ...base, maxOutputTokens: 100 })).toMatchObject({ max_completion_tokens: 100 });
      expect(encode({ ...base, maxOutputTokens: 100 }, compatible)).toMatchObject({ max_tokens: 100 });
      expect(encode({ ...base, maxOutputTokens: 100 }, compatible)).not.toHaveProperty('max_completion_tokens');
    });

    it('should always ask a stream for usage, even when the caller did not', () => {
      expect(encode({ ...base, stream: true, includeUsage: false })).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(encode({ ...base, stream: true }, { ...openAIChatDialect, streamUsage: 'always' })).not.toHaveProperty('stream_options');
      expect(encode(base)).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: false });
    });

    it('should map sampling, stop sequences and metadata', () => {
      const body = encode({
        ...base,
        sampling: { temperature: 0.3, topP: 0.9, presencePenalty: 0.1, frequencyPenalty: 0.2, seed: 7 },
        stopSequences: ['END'],
        metadata: { userId: 'u-1', tags: { team: 'a' } },
      });
      expect(body).toMatchObject({
        temperature: 0.3,
        top_p: 0.9,
        presence_penalty: 0.1,
        frequency_penalty: 0.2,
        seed: 7,
        stop: ['END'],
        safety_identifier: 'u-1',
        metadata: { team: 'a' },
      });
    });

    it("should hash an end-user id longer than OpenAI's 64 characters, the same way every turn", () => {
      const userId = JSON.stringify({ device_id: 'd'.repeat(64), session_id: 's'.repeat(36) });
      const first = encode({ ...base, metadata: { userId } }).safety_identifier as string;
      expect(first.length).toBeLessThanOrEqual(64);
      expect(first).toMatch(/^user_sy[0-9a-f]{14}$/);
      expect(encode({ ...base, metadata: { userId } }).safety_identifier).toBe(first);
    });

    it('should refuse top_k, which OpenAI cannot carry, naming it and the model', () => {
      const error = gatewayErrorOf(() => encode({ ...base, sampling: { topK: 40 } }));
      expect(error).toMatchObject({ status: 400, code: 'UNSUPPORTED_FEATURE', param: 'top_k' });
      expect(error.message).toContain("'gpt-4o'");
    });

    it('should encode JSON schema output, JSON mode, and JSON mode for servers without json_object', () => {
      const schema = { type: 'object', properties: { a: { type: 'number' } } };
      expect(encode({ ...base, responseFormat: { type: 'json-schema', schema, name: 'out', strict: true } })).toMatchObject({
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } },
      });
      expect(encode({ ...base, responseFormat: { type: 'json' } })).toMatchObject({ response_format: { type: 'json_object' } });
      const lmStudio = { ...openAIChatDialect, responseFormats: ['json_schema'] as const };
      expect(encode({ ...base, responseFormat: { type: 'json' } }, lmStudio)).toMatchObject({
        response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } },
      });
      const deepseek = { ...openAIChatDialect, responseFormats: ['json_object'] as const };
      expect(gatewayErrorOf(() => encode({ ...base, responseFormat: { type: 'json-schema', schema } }, deepseek)).code).toBe(
        'UNSUPPORTED_FEATURE',
      );
    });
  });

  describe('reasoning', () => {
    it('should send an effort as reasoning_effort', () => {
      expect(encode({ ...base, reasoning: { effort: 'high' } })).toMatchObject({ reasoning_effort: 'high' });
    });

    it('should turn an Anthropic thinking budget into an effort', () => {
      expect(encode({ ...base, reasoning: { mode: 'enabled', budgetTokens: 1024 } })).toMatchObject({ reasoning_effort: 'low' });
      expect(encode({ ...base, reasoning: { mode: 'enabled', budgetTokens: 2048 } })).toMatchObject({ reasoning_effort: 'medium' });
      expect(encode({ ...base, reasoning: { mode: 'enabled', budgetTokens: 16000 } })).toMatchObject({ reasoning_effort: 'high' });
    });

    it('should send nothing for disabled thinking, so non-reasoning models are not refused', () => {
      expect(encode({ ...base, reasoning: { mode: 'disabled' } })).not.toHaveProperty('reasoning_effort');
      expect(encode({ ...base, reasoning: { mode: 'disabled', effort: 'none' } })).toMatchObject({ reasoning_effort: 'none' });
    });

    it('should move an effort the upstream lacks to the nearest one it has', () => {
      const dialect = { ...openAIChatDialect, reasoningEfforts: ['low', 'medium', 'high'] as const };
      expect(encode({ ...base, reasoning: { effort: 'minimal' } }, dialect)).toMatchObject({ reasoning_effort: 'low' });
      expect(encode({ ...base, reasoning: { effort: 'max' } }, dialect)).toMatchObject({ reasoning_effort: 'high' });
    });

    it('should use DeepSeek thinking and OpenRouter reasoning objects where the dialect says', () => {
      const deepseek = { ...openAIChatDialect, reasoningControl: 'thinking' as const, reasoningEfforts: ['low', 'high', 'max'] as const };
      expect(encode({ ...base, reasoning: { effort: 'medium' } }, deepseek)).toMatchObject({
        thinking: { type: 'enabled' },
        reasoning_effort: 'high',
      });
      expect(encode({ ...base, reasoning: { mode: 'disabled' } }, deepseek)).toMatchObject({ thinking: { type: 'disabled' } });
      const openrouter = { ...openAIChatDialect, reasoningControl: 'reasoning_object' as const };
      expect(encode({ ...base, reasoning: { mode: 'enabled', budgetTokens: 3000 } }, openrouter)).toMatchObject({
        reasoning: { max_tokens: 3000 },
      });
    });

    it('should refuse a reasoning request a server cannot take per call', () => {
      const none = { ...openAIChatDialect, reasoningControl: 'none' as const };
      expect(gatewayErrorOf(() => encode({ ...base, reasoning: { effort: 'high' } }, none)).code).toBe('UNSUPPORTED_FEATURE');
      expect(encode({ ...base, reasoning: { mode: 'disabled' } }, none)).not.toHaveProperty('reasoning_effort');
    });
  });

  describe('tools', () => {
    const tool = { type: 'function' as const, name: 'get_weather', description: 'Weather', parameters: { type: 'object' } };

    it('should encode function tools, a named choice and parallel_tool_calls', () => {
      const body = encode({ ...base, tools: [tool], toolChoice: { type: 'tool', name: 'get_weather' }, parallelToolCalls: false });
      expect(body).toMatchObject({
        tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } }],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        parallel_tool_calls: false,
      });
    });

    it('should encode allowed tools and Mistral `any` for required', () => {
      expect(encode({ ...base, tools: [tool], toolChoice: { type: 'required', allowedTools: ['get_weather'] } })).toMatchObject({
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
        },
      });
      const mistral = { ...openAIChatDialect, requiredToolChoice: 'any' as const };
      expect(encode({ ...base, tools: [tool], toolChoice: { type: 'required' } }, mistral)).toMatchObject({ tool_choice: 'any' });
    });

    it('should leave the tools out for `none`, and refuse `required`, where tool_choice is ignored (Ollama)', () => {
      const ollama = { ...openAIChatDialect, toolChoices: ['auto'] as const, parallelToolCalls: false };
      const none = encode({ ...base, tools: [tool], toolChoice: { type: 'none' } }, ollama);
      expect(none).not.toHaveProperty('tools');
      expect(none).not.toHaveProperty('tool_choice');
      expect(gatewayErrorOf(() => encode({ ...base, tools: [tool], toolChoice: { type: 'required' } }, ollama))).toMatchObject({
        code: 'UNSUPPORTED_FEATURE',
        param: 'tool_choice',
      });
      expect(gatewayErrorOf(() => encode({ ...base, tools: [tool], parallelToolCalls: false }, ollama)).param).toBe('parallel_tool_calls');
    });

    it('should pass Chat custom tools verbatim and refuse other protocols’ provider tools', () => {
      const custom = { type: 'custom', custom: { name: 'sql', format: { type: 'grammar', grammar: { definition: 'x', syntax: 'lark' } } } };
      const request = chat({ tools: [custom] });
      expect(encode(request).tools).toEqual([custom]);
      const hosted = {
        ...base,
        tools: [{ type: 'provider-defined' as const, protocol: 'messages' as const, kind: 'web_search_20250305', definition: {} }],
      };
      expect(gatewayErrorOf(() => encode(hosted))).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'tools[0]' });
    });
  });

  describe('same-protocol passthrough', () => {
    it('should put the Chat fields without a canonical home back on the body', () => {
      const body = encode(
        chat({
          n: 2,
          logprobs: true,
          top_logprobs: 3,
          logit_bias: { '50256': -100 },
          prediction: { type: 'content', content: 'x' },
          vendor_flag: true,
        }),
      );
      expect(body).toMatchObject({
        n: 2,
        logprobs: true,
        top_logprobs: 3,
        logit_bias: { '50256': -100 },
        prediction: { type: 'content', content: 'x' },
        vendor_flag: true,
      });
    });

    it('should round-trip an OpenAI Agents request: developer role, tool calls, one tool message per result', () => {
      const wire = jsonFixture('chat-completions', 'openai-agents-tools') as Record<string, unknown>;
      const body = encode(decodeChatRequest(wire));
      // A single text part and a string say the same; the string is what goes out.
      const messages = structuredClone(wire.messages) as Record<string, unknown>[];
      messages[4] = { ...messages[4], content: '14:05 CET' };
      expect(body.messages).toEqual(messages);
      expect(body).toMatchObject({
        tools: wire.tools,
        tool_choice: 'auto',
        parallel_tool_calls: true,
        store: false,
        prompt_cache_key: 'travel-agent-v2',
        metadata: { session: 's-42' },
      });
    });

    it('should send a deprecated functions request as tools, with the legacy call and its result linked', () => {
      const body = encode(decodeChatRequest(jsonFixture('chat-completions', 'legacy-functions')));
      expect(body.messages).toEqual([
        { role: 'user', content: 'Weather in Boston?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_legacy_0', type: 'function', function: { name: 'get_current_weather', arguments: '{"location":"Boston"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_legacy_0', content: '{"temperature":22}' },
      ]);
      expect(body).toMatchObject({
        tool_choice: 'auto',
        parallel_tool_calls: false,
        tools: [{ type: 'function', function: { name: 'get_current_weather' } }],
      });
      expect(JSON.stringify(body)).not.toContain('"source"');
    });

    it('should put part, message and tool extension fields back where they came from', () => {
      const request = chat({
        messages: [
          {
            role: 'user',
            name: 'ann',
            content: [
              { type: 'text', text: 'a', prompt_cache_breakpoint: { mode: 'explicit' } },
              { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high', vendor: 1 } },
            ],
          },
        ],
        tools: [{ type: 'function', function: { name: 'f', vendor: 2 }, cache: true }],
      });
      const body = encode(request);
      expect(body.messages).toEqual([
        {
          role: 'user',
          name: 'ann',
          content: [
            { type: 'text', text: 'a', prompt_cache_breakpoint: { mode: 'explicit' } },
            { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high', vendor: 1 } },
          ],
        },
      ]);
      expect(body.tools).toEqual([{ type: 'function', function: { name: 'f', vendor: 2 }, cache: true }]);
    });

    it('should refuse a field a strict server cannot carry, and drop a hint it does not take', () => {
      const mistral = { ...compatible, extensionFields: { only: ['safe_prompt'] } };
      expect(gatewayErrorOf(() => encode(chat({ logprobs: true }), mistral))).toMatchObject({
        code: 'UNSUPPORTED_FEATURE',
        param: 'logprobs',
      });
      const body = encode(chat({ store: true, safe_prompt: true }), mistral);
      expect(body).toMatchObject({ safe_prompt: true });
      expect(body).not.toHaveProperty('store');
      const groq = { ...compatible, extensionFields: { except: ['logprobs'] } };
      expect(gatewayErrorOf(() => encode(chat({ logprobs: true }), groq)).param).toBe('logprobs');
    });

    it('should call a field Chat does not have unknown, suggesting the closest, where the server takes no extras', () => {
      const mistral = { ...compatible, extensionFields: { only: ['safe_prompt'] } };
      const error = gatewayErrorOf(() => encode(chat({ temprature: 0.2 }), mistral));
      expect(error).toMatchObject({ status: 400, code: 'UNKNOWN_FIELD', param: 'temprature' });
      expect(error.message).toBe(
        "'temprature' is not a field of the Chat Completions API. Did you mean 'temperature'? The model 'gpt-4o' does not take it as an extra field.",
      );
      // A server that takes vendor extras gets it, typo or not: it is the server's to refuse.
      expect(encode(chat({ temprature: 0.2 }))).toMatchObject({ temprature: 0.2 });
    });
  });

  describe('messages', () => {
    it('should send images by URL and base64 data URL, and PDFs as file parts', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'low' },
              { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
            ],
          },
        ],
      };
      expect(encode(request).messages[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
        ],
      });
    });

    it('should refuse an image given by file id', () => {
      const request = {
        ...base,
        messages: [
          { role: 'user' as const, content: [{ type: 'image' as const, source: { kind: 'file-id' as const, fileId: 'file_1' } }] },
        ],
      };
      expect(gatewayErrorOf(() => encode(request))).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'messages[0].content[0]' });
    });

    it('should send developer instructions as system where the role does not exist, with text parts joined', () => {
      const request = chat({
        messages: [
          {
            role: 'developer',
            content: [
              { type: 'text', text: 'A' },
              { type: 'text', text: 'B' },
            ],
          },
          { role: 'user', content: 'Hi' },
        ],
      });
      expect(encode(request).messages[0]).toEqual({
        role: 'developer',
        content: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
      });
      expect(encode(request, compatible).messages[0]).toEqual({ role: 'system', content: 'A\nB' });
    });

    it('should map an Anthropic tool turn: thinking dropped, tool results one message each, ids verbatim', () => {
      const request = decodeMessagesRequest({
        model: 'claude',
        max_tokens: 1024,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: 'Weather in Paris and Rome?' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Two calls.', signature: 'EqQBsig' },
              { type: 'redacted_thinking', data: 'EmwKredacted' },
              { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
              { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_01A', content: '18°C' },
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01B',
                is_error: true,
                content: [
                  { type: 'text', text: 'city missing' },
                  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
                ],
              },
              { type: 'text', text: 'Go on.' },
            ],
          },
        ],
      });
      const body = encode({ ...request, model: 'gpt-4o' });
      expect(body.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '18°C' },
        { role: 'tool', tool_call_id: 'toolu_01B', content: 'Error: city missing' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Attachments returned by tool call toolu_01B:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          ],
        },
        { role: 'user', content: 'Go on.' },
      ]);
      expect(JSON.stringify(body)).not.toContain('EqQBsig');
      expect(JSON.stringify(body)).not.toContain('Two calls.');
    });

    it('should replay reasoning text in the dialect’s field, never in content', () => {
      const request = chat({
        messages: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'A', reasoning_content: 'because' },
          { role: 'user', content: 'Q2' },
        ],
      });
      expect(encode(request).messages[1]).toEqual({ role: 'assistant', content: 'A' });
      const deepseek = { ...compatible, reasoningReplay: 'reasoning_content' as const };
      expect(encode(request, deepseek).messages[1]).toEqual({ role: 'assistant', content: 'A', reasoning_content: 'because' });
    });

    it('should leave out an assistant turn that only held another provider’s signed thinking', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [user('Q'), { role: 'assistant', content: [{ type: 'reasoning', text: '', signature: 'sig' }] }, user('Q2')],
      };
      expect(encode(request).messages).toEqual([
        { role: 'user', content: 'Q' },
        { role: 'user', content: 'Q2' },
      ]);
    });

    it('should map tool-call ids to 9 alphanumerics, the same on the call and its result (Mistral)', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [
          user('Q'),
          { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_01A', name: 'f', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01A', content: [{ type: 'text', text: 'ok' }] }] },
        ],
      };
      const body = encode(request, { ...compatible, toolCallIds: 'alnum9' });
      const call = (body.messages[1]?.tool_calls as { id: string }[])[0]?.id;
      expect(call).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: call });
      expect(encode(request).messages[2]).toMatchObject({ tool_call_id: 'toolu_01A' });
    });

    it('should refuse another protocol’s content in the conversation', () => {
      const request: CanonicalRequest = {
        ...base,
        messages: [
          { role: 'assistant', content: [{ type: 'provider-defined', protocol: 'responses', kind: 'web_search_call', data: {} }] },
        ],
      };
      expect(gatewayErrorOf(() => encode(request))).toMatchObject({ code: 'UNSUPPORTED_FEATURE', param: 'messages[0].content[0]' });
    });
  });
});
