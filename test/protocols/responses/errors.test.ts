import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/canonical/index.js';
import { renderResponsesError } from '../../../src/protocols/responses/errors.js';

describe('renderResponsesError', () => {
  it('should render the OpenAI error body with an OpenAI code and the param', () => {
    const error = new GatewayError({ kind: 'not_found', code: 'UNKNOWN_MODEL', param: 'model', message: 'No such model.' });
    const rendered = renderResponsesError(error, 'req_1');
    expect(rendered.status).toBe(404);
    expect(rendered.body).toEqual({
      error: { message: 'No such model.', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
    });
    expect(rendered.headers['x-request-id']).toBe('req_1');
  });

  it('should send retry-after and retry-after-ms when the error says how long to wait', () => {
    const error = new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.', retryAfter: 1.5 });
    expect(renderResponsesError(error, 'req_3').headers).toEqual({
      'x-request-id': 'req_3',
      'retry-after': '2',
      'retry-after-ms': '1500',
    });
  });
});
