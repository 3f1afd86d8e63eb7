import { describe, expect, it } from 'vitest';
import { decodeChatFinishReason, encodeChatFinishReason } from '../../../src/protocols/chat-completions/finish-reason.js';

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

  it('should decode a missing reason as other without raw', () => {
    expect(decodeChatFinishReason(null)).toEqual({ unified: 'other' });
  });
});
