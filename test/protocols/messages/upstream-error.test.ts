import { describe, expect, it } from 'vitest';
import { parseMessagesError, parseMessagesStreamError } from '../../../src/protocols/messages/upstream-error.js';

const body = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

describe('parseMessagesError', () => {
  describe('status and kind', () => {
    it.each([
      [400, 'invalid_request_error', 'invalid_request', false],
      [401, 'authentication_error', 'authentication', false],
      [402, 'billing_error', 'permission', false],
      [403, 'permission_error', 'permission', false],
      [404, 'not_found_error', 'not_found', false],
      [413, 'request_too_large', 'invalid_request', false],
      [429, 'rate_limit_error', 'rate_limit', true],
      [500, 'api_error', 'upstream', true],
      [504, 'timeout_error', 'timeout', true],
      [529, 'overloaded_error', 'overloaded', true],
    ] as const)('should map %i %s to kind %s (retryable %s)', (status, type, kind, retryable) => {
      expect(parseMessagesError(status, body(type, 'Something happened.'))).toMatchObject({ status, kind, retryable });
    });
  });

  describe('message and code', () => {
    it("should keep Anthropic's message and derive a stable code from the error type", () => {
      const error = parseMessagesError(400, body('invalid_request_error', 'max_tokens: Field required'));
      expect(error.message).toBe('max_tokens: Field required');
      expect(error.code).toBe('UPSTREAM_INVALID_REQUEST_ERROR');
    });

    it('should describe a body that is not an Anthropic error, with its status', () => {
      const error = parseMessagesError(502, '<html>Bad Gateway</html>');
      expect(error).toMatchObject({ status: 502, kind: 'upstream', code: 'UPSTREAM_HTTP_502', retryable: true });
      expect(error.message).toContain('502');
      expect(error.message).toContain('Bad Gateway');
    });
  });

  describe('x-should-retry', () => {
    it('should let the header override the status rule', () => {
      expect(parseMessagesError(500, body('api_error', 'x'), { shouldRetry: false }).retryable).toBe(false);
      expect(parseMessagesError(400, body('invalid_request_error', 'x'), { shouldRetry: true }).retryable).toBe(true);
    });
  });
});

describe('parseMessagesStreamError', () => {
  it('should take the status from the error type of an in-band error', () => {
    expect(parseMessagesStreamError(body('rate_limit_error', 'Slow down'))).toMatchObject({
      status: 429,
      kind: 'rate_limit',
      retryable: true,
    });
    expect(parseMessagesStreamError(body('overloaded_error', 'Overloaded'))).toMatchObject({ status: 529, kind: 'overloaded' });
  });
});
