import { describe, expect, it } from 'vitest';
import {
  decodeReasoningSignature,
  decodeToolCallId,
  encodeReasoningSignature,
  encodeToolCallId,
} from '../../../src/protocols/gemini/index.js';
import { mintToolCallId } from '../../../src/protocols/gemini/signatures.js';

describe('Gemini signatures in canonical ids', () => {
  it('should leave an id without a signature unchanged', () => {
    expect(encodeToolCallId('call_1', undefined)).toBe('call_1');
    expect(decodeToolCallId('call_1')).toEqual({ callId: 'call_1' });
  });

  it('should carry a base64 signature in an id of the Anthropic tool id alphabet and get it back byte-exact', () => {
    for (const signature of ['CiQBe/x+AAA=', 'Q2lRQ0FRLi4u', 'YQ==', 'ab+/']) {
      const id = encodeToolCallId('call_abc', signature);
      expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(decodeToolCallId(id)).toEqual({ callId: 'call_abc', signature });
    }
  });

  it('should carry a signature that is not padded base64 byte-exact too', () => {
    for (const signature of ['no-padding', 'skip_thought_signature_validator', 'ünïcode sig']) {
      const id = encodeToolCallId('fc-1', signature);
      expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(decodeToolCallId(id)).toEqual({ callId: 'fc-1', signature });
    }
  });

  it('should mark reasoning signatures as Gemini ones and ignore other vendors', () => {
    expect(decodeReasoningSignature(encodeReasoningSignature('abc'))).toBe('abc');
    expect(decodeReasoningSignature('EqQBCkgIAR...anthropic')).toBeUndefined();
    expect(decodeReasoningSignature(undefined)).toBeUndefined();
  });

  it('should mint stable ids that differ per call position and never equal the function name', () => {
    const first = mintToolCallId('resp-1', 0, 'get_weather');
    expect(mintToolCallId('resp-1', 0, 'get_weather')).toBe(first);
    expect(mintToolCallId('resp-1', 1, 'get_weather')).not.toBe(first);
    expect(mintToolCallId('resp-2', 0, 'get_weather')).not.toBe(first);
    expect(first).toMatch(/^call_[a-z0-9]+_0$/);
  });
});
