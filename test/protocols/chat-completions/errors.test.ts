import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamErrorCode, type GatewayErrorKind } from '../../../src/canonical/index.js';
import { renderChatError } from '../../../src/protocols/chat-completions/errors.js';

const error = (kind: GatewayErrorKind, code: string, extra: { status?: number; retryAfter?: number; param?: string } = {}) =>
  new GatewayError({ kind, code: upstreamErrorCode(code), message: `${code} happened`, ...extra });

describe('renderChatError', () => {
  it.each([
    ['invalid_request', 'INVALID_REQUEST_BODY', 400, 'invalid_request_error', 'invalid_request_body'],
    ['authentication', 'INVALID_API_KEY', 401, 'authentication_error', 'invalid_api_key'],
    ['permission', 'FORBIDDEN_MODEL', 403, 'permission_error', 'forbidden_model'],
    ['not_found', 'UNKNOWN_MODEL', 404, 'invalid_request_error', 'model_not_found'],
    ['rate_limit', 'RATE_LIMITED', 429, 'rate_limit_error', 'rate_limit_exceeded'],
    ['internal', 'INTERNAL_ERROR', 500, 'server_error', 'internal_error'],
    ['upstream', 'UPSTREAM_ERROR', 502, 'server_error', 'upstream_error'],
    ['overloaded', 'OVERLOADED', 503, 'service_unavailable_error', 'overloaded'],
    ['timeout', 'UPSTREAM_TIMEOUT', 504, 'server_error', 'upstream_timeout'],
  ] as const)('should render %s as %d %s', (kind, code, status, type, wireCode) => {
    const rendered = renderChatError(error(kind, code), 'req_1');
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ error: { message: `${code} happened`, type, param: null, code: wireCode } });
    expect(rendered.headers['x-request-id']).toBe('req_1');
  });

  it('should name the param and add retry headers when the error has a wait', () => {
    const rendered = renderChatError(error('rate_limit', 'RATE_LIMITED', { retryAfter: 1.5, param: 'model' }), 'req_2');
    expect(rendered.body).toMatchObject({ error: { param: 'model' } });
    expect(rendered.headers).toEqual({
      'x-request-id': 'req_2',
      'retry-after': '2',
      'retry-after-ms': '1500',
    });
  });

  it('should turn an Anthropic 529 into a 503', () => {
    expect(renderChatError(error('overloaded', 'OVERLOADED', { status: 529 }), 'r').status).toBe(503);
  });
});
