import { describe, expect, it } from 'vitest';
import { decodeGeminiFinishReason } from '../../../src/protocols/gemini/index.js';

describe('decodeGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool-calls'],
    ['MAX_TOKENS', false, 'length'],
    ['CONTINUATION', false, 'length'],
    ['SAFETY', false, 'content-filter'],
    ['RECITATION', false, 'content-filter'],
    ['PROHIBITED_CONTENT', false, 'content-filter'],
    ['IMAGE_SAFETY', false, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'error'],
    ['UNEXPECTED_TOOL_CALL', true, 'error'],
    ['OTHER', false, 'other'],
    ['SOMETHING_NEW', false, 'other'],
  ] as const)('should map %s (calls: %s) to %s, keeping the raw value', (raw, hasToolCalls, unified) => {
    expect(decodeGeminiFinishReason(raw, { hasToolCalls })).toEqual({ unified, raw });
  });

  it('should leave raw out when Gemini sent no finish reason', () => {
    expect(decodeGeminiFinishReason(undefined, { hasToolCalls: false })).toEqual({ unified: 'other' });
  });
});
