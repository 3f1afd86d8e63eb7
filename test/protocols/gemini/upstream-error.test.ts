import { describe, expect, it } from 'vitest';
import { parseGeminiError } from '../../../src/protocols/gemini/index.js';
import { jsonFixture } from '../../helpers/fixtures.js';

describe('parseGeminiError', () => {
  it('should make a quota 429 a retryable rate limit with RetryInfo as retry-after and the message kept', () => {
    const error = parseGeminiError(429, jsonFixture('gemini', 'error-429'));
    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryable: true, retryAfter: 38, code: 'GEMINI_RESOURCE_EXHAUSTED' });
    expect(error.message).toContain('Please retry in 38.2s');
  });

  it('should not retry an exhausted per-day quota, also when the body is wrapped in an array', () => {
    expect(parseGeminiError(429, jsonFixture('gemini', 'error-429-daily'))).toMatchObject({
      status: 429,
      retryable: false,
      retryAfter: 3600,
    });
  });

  it('should turn an invalid API key (a 400 on Gemini) into a 401', () => {
    expect(parseGeminiError(400, jsonFixture('gemini', 'error-400-api-key'))).toMatchObject({
      kind: 'authentication',
      status: 401,
      retryable: false,
      code: 'GEMINI_API_KEY_INVALID',
      message: 'API key not valid. Please pass a valid API key.',
    });
  });

  it("should keep a 400 a non-retryable invalid request with Google's explanation", () => {
    const error = parseGeminiError(400, jsonFixture('gemini', 'error-400-signature'));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, retryable: false, code: 'GEMINI_INVALID_ARGUMENT' });
    expect(error.message).toContain('missing a thought_signature');
  });

  it.each([
    [401, 'authentication', false],
    [403, 'permission', false],
    [404, 'not_found', false],
    [500, 'upstream', true],
    [503, 'overloaded', true],
    [504, 'timeout', true],
  ] as const)('should map HTTP %i to %s (retryable %s)', (status, kind, retryable) => {
    expect(parseGeminiError(status, { error: { code: status, message: 'x', status: 'S' } })).toMatchObject({ status, kind, retryable });
  });

  it('should cope with a body that is not JSON', () => {
    expect(parseGeminiError(502, '<html>Bad Gateway</html>')).toMatchObject({
      status: 502,
      retryable: true,
      message: '<html>Bad Gateway</html>',
      code: 'GEMINI_HTTP_502',
    });
    expect(parseGeminiError(500, undefined).message).toContain('HTTP 500');
  });
});
