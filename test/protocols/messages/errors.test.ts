import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamErrorCode, type GatewayErrorKind } from '../../../src/canonical/index.js';
import { renderMessagesError } from '../../../src/protocols/messages/errors.js';

function error(kind: GatewayErrorKind, status?: number, retryAfter?: number): GatewayError {
  return new GatewayError({ kind, code: upstreamErrorCode('TEST_CODE'), message: 'Something went wrong.', status, retryAfter });
}

describe('renderMessagesError', () => {
  it.each([
    ['invalid_request', undefined, 400, 'invalid_request_error'],
    ['authentication', undefined, 401, 'authentication_error'],
    ['permission', 402, 402, 'billing_error'],
    ['permission', undefined, 403, 'permission_error'],
    ['not_found', undefined, 404, 'not_found_error'],
    ['timeout', 408, 408, 'timeout_error'],
    ['invalid_request', 409, 409, 'conflict_error'],
    ['invalid_request', 413, 413, 'request_too_large'],
    ['invalid_request', 422, 422, 'invalid_request_error'],
    ['rate_limit', undefined, 429, 'rate_limit_error'],
    ['internal', undefined, 500, 'api_error'],
    ['upstream', undefined, 502, 'api_error'],
    ['upstream', 503, 503, 'overloaded_error'],
    ['timeout', undefined, 504, 'timeout_error'],
    ['overloaded', undefined, 529, 'overloaded_error'],
  ] as const)('should render kind %s (status %s) as %i %s', (kind, givenStatus, status, type) => {
    const rendered = renderMessagesError(error(kind, givenStatus), 'req_1');
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ type: 'error', error: { type, message: 'Something went wrong.' }, request_id: 'req_1' });
  });

  it('should set the request-id header and no retry headers by default', () => {
    expect(renderMessagesError(error('internal'), 'req_9').headers).toEqual({ 'request-id': 'req_9' });
  });

  it('should set retry-after (whole seconds) and retry-after-ms when retryAfter is set', () => {
    expect(renderMessagesError(error('rate_limit', undefined, 1.5), 'req_1').headers).toEqual({
      'request-id': 'req_1',
      'retry-after': '2',
      'retry-after-ms': '1500',
    });
  });
});
