import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamErrorCode } from '../../src/canonical/index.js';
import { backoffMs, DEFAULT_RETRIES, failureActionOf, resolveRetries } from '../../src/routing/retry-policy.js';

const upstream = (status: number, code = 'UPSTREAM_ERROR', message = 'failed', retryable?: boolean) =>
  new GatewayError({
    kind: status === 429 ? 'rate_limit' : status >= 500 ? 'upstream' : 'invalid_request',
    status,
    code: upstreamErrorCode(code),
    message,
    ...(retryable === undefined ? {} : { retryable }),
  });

describe('resolveRetries', () => {
  it('should lay the model over the gateway over the defaults', () => {
    expect(resolveRetries({ attempts: 5, baseDelayMs: 10 }, { attempts: 0 })).toEqual({ ...DEFAULT_RETRIES, attempts: 0, baseDelayMs: 10 });
    expect(resolveRetries(undefined, undefined)).toEqual(DEFAULT_RETRIES);
  });
});

describe('backoffMs', () => {
  const retries = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 0 };
  it('should double each time, with half of it random, up to the ceiling', () => {
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(retries, retry, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((retry) => backoffMs(retries, retry, () => 0.999_999))).toEqual(
      [100, 200, 400, 800, 1_000].map((ms) => expect.closeTo(ms, 0)),
    );
  });
});

describe('failureActionOf', () => {
  it.each([408, 429, 500, 502, 503, 504, 529])('should retry HTTP %i', (status) => {
    expect(failureActionOf(upstream(status, 'X', 'failed', false))).toBe('retry');
  });

  it('should retry a connection failure', () => {
    expect(failureActionOf(new GatewayError({ kind: 'upstream', code: 'UPSTREAM_UNREACHABLE', retryable: true, message: 'refused' }))).toBe(
      'retry',
    );
  });

  it('should retry the per-attempt timeouts, but not the total one (it would wait as long again)', () => {
    expect(failureActionOf(new GatewayError({ kind: 'timeout', code: 'UPSTREAM_FIRST_TOKEN_TIMEOUT', message: 'no first token' }))).toBe(
      'retry',
    );
    expect(
      failureActionOf(new GatewayError({ kind: 'timeout', code: 'UPSTREAM_TOTAL_TIMEOUT', retryable: false, message: 'too long' })),
    ).toBe('final');
  });

  it("should move elsewhere, never retry, when the provider refused the gateway's credentials", () => {
    expect(failureActionOf(upstream(502, 'UPSTREAM_AUTHENTICATION_FAILED', 'refused', false))).toBe('elsewhere');
  });

  it('should go to the context fallback for a context overflow, in any provider words', () => {
    expect(failureActionOf(upstream(400, 'CONTEXT_LENGTH_EXCEEDED'))).toBe('context');
    expect(failureActionOf(upstream(400, 'UPSTREAM_INVALID_REQUEST_ERROR', 'prompt is too long: 250000 tokens > 200000 maximum'))).toBe(
      'context',
    );
    expect(
      failureActionOf(
        upstream(400, 'UPSTREAM_HTTP_400', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
      ),
    ).toBe('context');
  });

  it('should give the caller its own error: a bad request, or a cancelled one', () => {
    expect(failureActionOf(upstream(400, 'INVALID_VALUE', 'temperature must be at most 2'))).toBe('final');
    expect(failureActionOf(upstream(404, 'MODEL_NOT_FOUND'))).toBe('final');
    expect(failureActionOf(new GatewayError({ kind: 'timeout', code: 'REQUEST_ABORTED', status: 499, message: 'cancelled' }))).toBe(
      'final',
    );
  });
});
