import { describe, expect, it } from 'vitest';
import { decodeMessagesFinishReason, encodeMessagesFinishReason } from '../../../src/protocols/messages/finish-reason.js';

describe('decodeMessagesFinishReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['something_new', 'other'],
  ])('should map %s to %s and keep the raw value', (raw, unified) => {
    expect(decodeMessagesFinishReason(raw)).toEqual({ unified, raw });
  });

  it('should map a missing stop reason to other without raw', () => {
    expect(decodeMessagesFinishReason(null)).toEqual({ unified: 'other' });
  });
});

describe('encodeMessagesFinishReason', () => {
  const noTools = { hasToolCalls: false };

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content-filter', 'refusal'],
    ['error', 'end_turn'],
    ['other', 'end_turn'],
    ['tool-calls', 'end_turn'],
  ] as const)('should map %s to %s', (unified, stopReason) => {
    expect(encodeMessagesFinishReason({ unified }, noTools)).toBe(stopReason);
  });

  it('should report stop_sequence when the stop sequence is known', () => {
    expect(encodeMessagesFinishReason({ unified: 'stop' }, { hasToolCalls: false, stopSequence: '###' })).toBe('stop_sequence');
  });

  it('should report tool_use whenever there are tool calls, whatever the provider said', () => {
    expect(encodeMessagesFinishReason({ unified: 'stop', raw: 'stop' }, { hasToolCalls: true })).toBe('tool_use');
  });

  it('should keep a raw Anthropic value with the same meaning', () => {
    expect(encodeMessagesFinishReason({ unified: 'stop', raw: 'pause_turn' }, noTools)).toBe('pause_turn');
    expect(encodeMessagesFinishReason({ unified: 'length', raw: 'model_context_window_exceeded' }, noTools)).toBe(
      'model_context_window_exceeded',
    );
  });

  it('should not pass another vendor raw value through', () => {
    expect(encodeMessagesFinishReason({ unified: 'length', raw: 'length' }, noTools)).toBe('max_tokens');
    expect(encodeMessagesFinishReason({ unified: 'stop', raw: 'max_tokens' }, noTools)).toBe('end_turn');
  });
});
