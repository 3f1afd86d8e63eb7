import { describe, expect, it } from 'vitest';
import type { CanonicalResponse } from '../../../src/canonical/index.js';
import { encodeMessagesResponse, encodeMessagesToolInput } from '../../../src/protocols/messages/response.js';
import { createEncodeContext } from './encode-context.js';

const context = createEncodeContext();

function response(overrides: Partial<CanonicalResponse>): CanonicalResponse {
  return {
    id: 'chatcmpl-upstream',
    model: 'upstream-model',
    content: [{ type: 'text', text: 'Hello!' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: 25, outputTokens: 12 },
    ...overrides,
  };
}

describe('encodeMessagesResponse', () => {
  it('should encode a text answer with the id derived from the request id and the caller model', () => {
    expect(encodeMessagesResponse(response({}), context)).toEqual({
      id: 'msg_01TEST',
      type: 'message',
      role: 'assistant',
      model: 'claude-gateway',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        input_tokens: 25,
        output_tokens: 12,
        // Not reported: null (the SDK type allows it), not 0.
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        cache_creation: null,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: null,
        inference_geo: null,
        speed: null,
      },
    });
  });

  it('should keep a provider id that is already a Messages id', () => {
    expect(encodeMessagesResponse(response({ id: 'msg_upstream' }), context).id).toBe('msg_upstream');
  });

  it('should encode thinking with its signature, redacted thinking, text and parallel tool calls', () => {
    const body = encodeMessagesResponse(
      response({
        content: [
          { type: 'reasoning', text: 'Think.', signature: 'sig-1' },
          { type: 'reasoning', text: '', redactedData: 'opaque' },
          { type: 'text', text: 'Checking both.' },
          { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_2', name: 'get_time', arguments: '' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
      }),
      context,
    );
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'Think.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
    ]);
    expect(body.stop_reason).toBe('tool_use');
  });

  it('should report the stop sequence that fired', () => {
    const body = encodeMessagesResponse(response({ stopSequence: '###' }), context);
    expect([body.stop_reason, body.stop_sequence]).toEqual(['stop_sequence', '###']);
  });

  it.each([
    ['length', 'max_tokens'],
    ['content-filter', 'refusal'],
    ['other', 'end_turn'],
  ] as const)('should encode finish reason %s as %s', (unified, stopReason) => {
    expect(encodeMessagesResponse(response({ finishReason: { unified } }), context).stop_reason).toBe(stopReason);
  });

  it('should report cache usage with input tokens excluding the cache', () => {
    const body = encodeMessagesResponse(
      response({ usage: { inputTokens: 500, cachedInputTokens: 400, cacheWriteTokens: 50, outputTokens: 9, reasoningTokens: 4 } }),
      context,
    );
    expect(body.usage).toMatchObject({
      input_tokens: 50,
      cache_read_input_tokens: 400,
      cache_creation_input_tokens: 50,
      output_tokens: 9,
      output_tokens_details: { thinking_tokens: 4 },
    });
  });

  it('should send Messages provider-defined parts verbatim and leave other protocols out', () => {
    const block = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
    const body = encodeMessagesResponse(
      response({
        content: [
          { type: 'provider-defined', protocol: 'messages', kind: 'server_tool_use', data: block },
          { type: 'provider-defined', protocol: 'responses', kind: 'web_search_call', data: { id: 'ws_1' } },
        ],
      }),
      context,
    );
    expect(body.content).toEqual([block]);
  });

  it('should encode a refusal part as text', () => {
    const body = encodeMessagesResponse(
      response({ content: [{ type: 'refusal', text: 'No.' }], finishReason: { unified: 'content-filter' } }),
      context,
    );
    expect(body.content).toEqual([{ type: 'text', text: 'No.' }]);
    expect(body.stop_reason).toBe('refusal');
  });
});

describe('encodeMessagesToolInput', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['', {}],
    ['  \n', {}],
    ['{"a":', { _raw: '{"a":' }],
    ['[1,2]', { _raw: '[1,2]' }],
    ['"text"', { _raw: '"text"' }],
  ])('should turn %j into an object', (text, input) => {
    expect(encodeMessagesToolInput(text)).toEqual(input);
  });
});
