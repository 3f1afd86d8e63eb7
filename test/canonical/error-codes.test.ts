import { describe, expect, it } from 'vitest';
import {
  customErrorCode,
  errorCodes,
  GatewayError,
  openaiErrorCode,
  storeUnavailable,
  streamEndedEarly,
  upstreamErrorCode,
} from '../../src/canonical/index.js';
import { renderChatError } from '../../src/protocols/chat-completions/errors.js';
import { createGeminiStreamDecoder } from '../../src/protocols/gemini/stream-decoder.js';

describe('the error-code registry', () => {
  it("should give a registered code its row's kind, status and retryability", () => {
    for (const [code, row] of Object.entries(errorCodes)) {
      const error = new GatewayError({ code: code as keyof typeof errorCodes, message: 'm' });
      expect({ code, kind: error.kind, status: error.status, retryable: error.retryable }).toEqual({
        code,
        kind: row.kind,
        status: row.status,
        retryable: row.retryable,
      });
    }
  });

  it('should refuse a misspelled code at compile time', () => {
    // @ts-expect-error — 'UNKNOWN_MODLE' is not in the registry (tsc fails if this line ever compiles)
    const error = new GatewayError({ code: 'UNKNOWN_MODLE', message: 'm' });
    expect(error.code).toBe('UNKNOWN_MODLE');
  });

  it("should take a provider's or a user's own code only through its maker, with a kind", () => {
    expect(new GatewayError({ kind: 'rate_limit', code: upstreamErrorCode('rate_limit_exceeded'), message: 'm' })).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      status: 429,
      retryable: true,
    });
    expect(new GatewayError({ kind: 'invalid_request', code: customErrorCode('card_number'), message: 'm' })).toMatchObject({
      code: 'card_number',
      status: 400,
      retryable: false,
    });
  });

  it("should send OpenAI's own code where it has one, else the code in lower case", () => {
    expect(openaiErrorCode('UNKNOWN_MODEL')).toBe('model_not_found');
    expect(openaiErrorCode('BUDGET_EXCEEDED')).toBe('insufficient_quota');
    expect(openaiErrorCode('DOUBLE_V1_PATH')).toBe('double_v1_path');
    expect(renderChatError(new GatewayError({ code: 'RATE_LIMITED', message: 'm' }), 'r').body).toMatchObject({
      error: { code: 'rate_limit_exceeded', type: 'rate_limit_error' },
    });
  });

  it('should build every store-unreachable 503 the same way', () => {
    for (const code of ['KEY_STORE_UNAVAILABLE', 'BUDGET_UNAVAILABLE', 'LIMITS_UNAVAILABLE'] as const) {
      expect(storeUnavailable(code, new Error('down'))).toMatchObject({
        code,
        status: 503,
        kind: 'overloaded',
        retryable: true,
        retryAfter: 1,
      });
    }
  });

  it("should name a stream that ended early with one retryable code, Gemini's included", () => {
    expect(streamEndedEarly()).toMatchObject({ code: 'STREAM_ENDED_EARLY', status: 502, retryable: true });
    const decoder = createGeminiStreamDecoder({ fallbackId: 'gemini_req_1', fallbackModel: 'gemini-3.5-flash' });
    expect(decoder.end().at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY', retryable: true } });
  });
});
