import { describe, expect, it } from 'vitest';
import { decodeChatResponse } from '../../../src/protocols/chat-completions/index.js';
import { gatewayErrorOf } from '../../helpers/gateway-error-of.js';
import { jsonFixture } from '../../helpers/fixtures.js';

const failure = (body: unknown) => gatewayErrorOf(() => decodeChatResponse(body));

const answer = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-x',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
});

describe('decodeChatResponse', () => {
  describe('tool calls', () => {
    it('should keep the call id verbatim, the arguments text and a tool-calls finish', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-tool-call'));
      expect(response.content).toEqual([{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_calls' });
      expect(response).toMatchObject({ id: 'chatcmpl-abc123', model: 'gpt-4o-2024-08-06' });
    });

    it('should report tool-calls when the server says stop, stringify object arguments and mint a missing id', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-llama-cpp-object-args'));
      expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
      expect(response.content).toEqual([
        { type: 'reasoning', text: 'Call the tool.' },
        { type: 'tool-call', id: 'call_chatcmpl-Ll4m4_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ]);
    });

    it('should decode a custom tool call as a Chat provider-defined part', () => {
      const response = decodeChatResponse(
        answer({ tool_calls: [{ id: 'call_c', type: 'custom', custom: { name: 'grammar', input: 'x = 1' } }] }, 'tool_calls'),
      );
      expect(response.content).toEqual([
        {
          type: 'provider-defined',
          protocol: 'chat',
          kind: 'custom_tool_call',
          data: { id: 'call_c', type: 'custom', custom: { name: 'grammar', input: 'x = 1' } },
        },
      ]);
    });
  });

  describe('usage', () => {
    it('should keep cached and reasoning tokens', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-tool-call'));
      expect(response.usage).toEqual({
        inputTokens: 20,
        outputTokens: 5,
        totalTokens: 25,
        cachedInputTokens: 8,
        reasoningTokens: 2,
      });
    });

    it('should read DeepSeek cache hits as cached input tokens', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-deepseek'));
      expect(response.usage).toMatchObject({ inputTokens: 64, cachedInputTokens: 32, reasoningTokens: 100 });
    });

    it('should leave usage empty when the server sent none', () => {
      expect(decodeChatResponse(answer({ content: 'hi' })).usage).toEqual({});
    });
  });

  describe('reasoning', () => {
    it('should put reasoning_content in a reasoning part before the text', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-deepseek'));
      expect(response.content).toEqual([
        { type: 'reasoning', text: 'Compare 9.11 and 9.9: 0.11 < 0.9.' },
        { type: 'text', text: '9.11 is smaller.' },
      ]);
    });

    it('should split Mistral content arrays into reasoning and text', () => {
      const response = decodeChatResponse(jsonFixture('chat-completions', 'upstream-response-mistral-thinking'));
      expect(response.content).toEqual([
        { type: 'reasoning', text: 'Simple arithmetic.' },
        { type: 'text', text: '2 + 2 = 4.' },
      ]);
    });

    it('should read OpenRouter/Ollama `reasoning` when reasoning_content is absent', () => {
      const response = decodeChatResponse(answer({ content: 'ok', reasoning: 'thought' }));
      expect(response.content[0]).toEqual({ type: 'reasoning', text: 'thought' });
    });
  });

  describe('other content', () => {
    it('should decode a refusal and keep Chat-only answer fields in extensions', () => {
      const body = { ...answer({ content: null, refusal: 'I cannot help.' }), service_tier: 'default', system_fingerprint: 'fp_1' };
      const response = decodeChatResponse(body);
      expect(response.content).toEqual([{ type: 'refusal', text: 'I cannot help.' }]);
      expect(response.extensions).toEqual({ chat: { service_tier: 'default', system_fingerprint: 'fp_1' } });
    });

    it('should ignore unexpected fields and types without failing', () => {
      const body = { ...answer({ content: 'hi', annotations: 'odd', audio: { id: 'a' } }), usage: 'none', timings: {} };
      expect(decodeChatResponse(body).content).toEqual([{ type: 'text', text: 'hi' }]);
    });
  });

  describe('failures', () => {
    it('should throw the error of a 200 body that carries one', () => {
      const error = failure({ error: { code: 502, message: 'Provider returned error' } });
      expect(error).toMatchObject({ status: 502, kind: 'upstream', message: 'Provider returned error', retryable: true });
    });

    it('should throw a retryable upstream error for a body without choices', () => {
      expect(failure({ id: 'x', choices: [] })).toMatchObject({ code: 'UPSTREAM_INVALID_RESPONSE', retryable: true });
      expect(failure('<html>bad gateway</html>')).toMatchObject({ code: 'UPSTREAM_INVALID_RESPONSE' });
    });
  });
});
