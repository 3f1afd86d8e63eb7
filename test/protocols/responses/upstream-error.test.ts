import { describe, expect, it } from 'vitest';
import { decodeResponsesFailure, parseResponsesError } from '../../../src/protocols/responses/upstream-error.js';
import { jsonFixture } from '../../helpers/fixtures.js';

describe('parseResponsesError', () => {
  it("should keep the upstream's message, param and code for a 400", () => {
    expect(parseResponsesError(404, jsonFixture('responses', 'upstream-error'))).toMatchObject({
      kind: 'not_found',
      status: 404,
      code: 'MODEL_NOT_FOUND',
      param: 'model',
      retryable: false,
      message: "Invalid value: 'gpt-unknown'. The model does not exist or you do not have access to it.",
    });
  });

  it.each([
    [400, 'invalid_request', false],
    [401, 'authentication', false],
    [403, 'permission', false],
    [409, 'upstream', true],
    [422, 'invalid_request', false],
    [429, 'rate_limit', true],
    [500, 'upstream', true],
    [503, 'overloaded', true],
    [504, 'timeout', true],
  ])('should map status %i to %s (retryable: %s)', (status, kind, retryable) => {
    expect(parseResponsesError(status, { error: { message: 'x', type: 'y', param: null, code: null } })).toMatchObject({
      status,
      kind,
      retryable,
    });
  });

  it('should not retry a 429 for an exhausted quota', () => {
    const body = {
      error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    };
    expect(parseResponsesError(429, body)).toMatchObject({ kind: 'rate_limit', retryable: false, code: 'INSUFFICIENT_QUOTA' });
  });

  it('should explain a body that is not OpenAI JSON', () => {
    expect(parseResponsesError(502, '<html>Bad gateway</html>').message).toBe('<html>Bad gateway</html>');
    expect(parseResponsesError(500, '').message).toContain('500');
  });
});

describe('decodeResponsesFailure', () => {
  it('should make a rate limit failure retryable and an invalid prompt not', () => {
    expect(decodeResponsesFailure({ code: 'rate_limit_exceeded', message: 'slow down' })).toMatchObject({
      kind: 'rate_limit',
      status: 429,
      retryable: true,
      message: 'slow down',
    });
    expect(decodeResponsesFailure({ code: 'invalid_prompt', message: 'flagged' })).toMatchObject({
      kind: 'invalid_request',
      status: 400,
      retryable: false,
    });
  });

  it('should still give a message when the failure has none', () => {
    expect(decodeResponsesFailure(null)).toMatchObject({
      kind: 'upstream',
      code: 'SERVER_ERROR',
      message: 'The provider failed to produce an answer.',
    });
  });
});
