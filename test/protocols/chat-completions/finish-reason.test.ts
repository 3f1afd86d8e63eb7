import { describe, expect, it } from 'vitest';
import { decodeChatFinishReason, encodeChatFinishReason } from '../../../src/protocols/chat-completions/finish-reason.js';
import { decodeChatUpstreamFinishReason } from '../../../src/protocols/chat-completions/upstream-message.js';

describe('encodeChatFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool-calls', 'tool_calls'],
    ['content-filter', 'content_filter'],
    ['error', 'stop'],
    ['other', 'stop'],
  ] as const)('should encode %s as %s', (unified, wire) => {
    expect(encodeChatFinishReason({ unified })).toBe(wire);
  });

  it('should report the tool-call reason when the answer has calls, whatever the provider said', () => {
    expect(encodeChatFinishReason({ unified: 'stop', raw: 'stop' }, 'tool_calls')).toBe('tool_calls');
    expect(encodeChatFinishReason({ unified: 'length' }, 'function_call')).toBe('function_call');
  });
});

describe('decodeChatFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['eos', 'other'],
  ] as const)('should decode %s as %s and keep the raw word', (raw, unified) => {
    expect(decodeChatFinishReason(raw)).toEqual({ unified, raw });
  });

  it('should decode a missing reason as other, with no raw field at all', () => {
    expect(decodeChatFinishReason(null)).toStrictEqual({ unified: 'other' });
    expect(decodeChatFinishReason(undefined)).toStrictEqual({ unified: 'other' });
  });
});

describe('decodeChatUpstreamFinishReason', () => {
  it('should make an answer with tool calls end in tool-calls, keeping the word the server gave', () => {
    expect(decodeChatUpstreamFinishReason('stop', true)).toStrictEqual({ unified: 'tool-calls', raw: 'stop' });
    expect(decodeChatUpstreamFinishReason('tool_calls', true)).toStrictEqual({ unified: 'tool-calls', raw: 'tool_calls' });
  });

  it('should give no raw field when the server gave no word, or an empty one', () => {
    expect(decodeChatUpstreamFinishReason(null, true)).toStrictEqual({ unified: 'tool-calls' });
    expect(decodeChatUpstreamFinishReason('', true)).toStrictEqual({ unified: 'tool-calls' });
    expect(decodeChatUpstreamFinishReason(undefined, false)).toStrictEqual({ unified: 'stop' });
  });

  it("should read the servers' own words", () => {
    expect(decodeChatUpstreamFinishReason('eos', false)).toStrictEqual({ unified: 'stop', raw: 'eos' });
    expect(decodeChatUpstreamFinishReason('insufficient_system_resource', false)).toStrictEqual({
      unified: 'error',
      raw: 'insufficient_system_resource',
    });
    expect(decodeChatUpstreamFinishReason('length', false)).toStrictEqual({ unified: 'length', raw: 'length' });
  });
});
