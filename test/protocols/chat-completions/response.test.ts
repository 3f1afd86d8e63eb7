import { describe, expect, it } from 'vitest';
import type { CanonicalResponse } from '../../../src/canonical/index.js';
import { encodeChatResponse } from '../../../src/protocols/chat-completions/response.js';
import { createTestContext } from './context.js';

const response = (extra: Partial<CanonicalResponse> = {}): CanonicalResponse => ({
  id: 'msg_01XYZ',
  model: 'claude-sonnet-4-5-20250929',
  content: [{ type: 'text', text: 'Hello!' }],
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: { inputTokens: 20, outputTokens: 5, totalTokens: 25 },
  ...extra,
});

describe('encodeChatResponse', () => {
  it('should encode a text answer with the caller model, a chatcmpl id and usage', () => {
    expect(encodeChatResponse(response(), createTestContext())).toEqual({
      id: 'chatcmpl-abc123',
      object: 'chat.completion',
      created: 1730000000,
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello!', refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    });
  });

  it('should leave usage out (the SDK type makes it optional), rather than report 0 tokens, when the upstream reported none', () => {
    expect(encodeChatResponse(response({ usage: {} }), createTestContext())).not.toHaveProperty('usage');
  });

  it('should keep a provider id that already has the chatcmpl- prefix and pass on Chat extras', () => {
    const encoded = encodeChatResponse(
      response({ id: 'chatcmpl-up', extensions: { chat: { service_tier: 'default', system_fingerprint: 'fp_1' } } }),
      createTestContext(),
    );
    expect(encoded.id).toBe('chatcmpl-up');
    expect(encoded.service_tier).toBe('default');
    expect(encoded.system_fingerprint).toBe('fp_1');
  });

  it('should encode parallel tool calls with null content and report tool_calls even if the provider said stop', () => {
    const encoded = encodeChatResponse(
      response({
        content: [
          { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'toolu_2', name: 'get_time', arguments: '' },
        ],
      }),
      createTestContext(),
    );
    expect(encoded.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    });
    expect(encoded.choices[0].finish_reason).toBe('tool_calls');
  });

  it('should encode reasoning as reasoning_content and signed blocks as thinking_blocks, never as content', () => {
    const encoded = encodeChatResponse(
      response({
        content: [
          { type: 'reasoning', text: 'Think ', signature: 'sig-1' },
          { type: 'reasoning', text: '', redactedData: 'opaque' },
          { type: 'text', text: 'Answer' },
        ],
      }),
      createTestContext(),
    );
    expect(encoded.choices[0].message).toMatchObject({
      content: 'Answer',
      reasoning_content: 'Think ',
      thinking_blocks: [
        { type: 'thinking', thinking: 'Think ', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
    });
  });

  it('should leave thinking_blocks out when no reasoning part is signed', () => {
    const encoded = encodeChatResponse(
      response({
        content: [
          { type: 'reasoning', text: 'hmm' },
          { type: 'text', text: 'Hi' },
        ],
      }),
      createTestContext(),
    );
    expect(encoded.choices[0].message.reasoning_content).toBe('hmm');
    expect(encoded.choices[0].message).not.toHaveProperty('thinking_blocks');
  });

  it('should encode refusals and custom tool calls', () => {
    const encoded = encodeChatResponse(
      response({
        content: [
          { type: 'refusal', text: 'I cannot help.' },
          {
            type: 'provider-defined',
            protocol: 'chat',
            kind: 'custom_tool_call',
            data: { id: 'call_c', type: 'custom', custom: { name: 'grep', input: 'foo' } },
          },
        ],
        finishReason: { unified: 'content-filter' },
      }),
      createTestContext(),
    );
    expect(encoded.choices[0].message.refusal).toBe('I cannot help.');
    expect(encoded.choices[0].message.tool_calls).toEqual([{ id: 'call_c', type: 'custom', custom: { name: 'grep', input: 'foo' } }]);
  });

  it.each([
    ['length', 'length'],
    ['content-filter', 'content_filter'],
    ['other', 'stop'],
  ] as const)('should encode finish reason %s as %s', (unified, wire) => {
    expect(encodeChatResponse(response({ finishReason: { unified } }), createTestContext()).choices[0].finish_reason).toBe(wire);
  });

  it('should answer a deprecated functions request with function_call and finish reason function_call', () => {
    const context = createTestContext({
      tools: [{ type: 'function', name: 'get_weather', extensions: { chat: { source: 'functions' } } }],
    });
    const encoded = encodeChatResponse(
      response({ content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }),
      context,
    );
    expect(encoded.choices[0].message.function_call).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(encoded.choices[0].message).not.toHaveProperty('tool_calls');
    expect(encoded.choices[0].finish_reason).toBe('function_call');
  });
});
