import { describe, expect, it } from 'vitest';
import { openAIDuration, rateLimitHeaders } from '../../src/pipeline/rate-limit-headers.js';

const state = (requestsResetMs: number, tokensResetMs: number) => ({
  requests: { limit: 60, remaining: 59, resetMs: requestsResetMs },
  tokens: { limit: 1_000, remaining: 990, resetMs: tokensResetMs },
});

describe('rate-limit headers', () => {
  it("writes OpenAI's names and durations on Chat and Responses", () => {
    expect(rateLimitHeaders('chat', state(600, 61_500), 0)).toEqual({
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '600ms',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '990',
      'x-ratelimit-reset-tokens': '1m1s',
    });
    expect([0.2, 999, 1_000, 1_549, 59_999, 60_000, 361_000].map(openAIDuration)).toEqual([
      '1ms',
      '999ms',
      '1s',
      '1.5s',
      '60s',
      '1m0s',
      '6m1s',
    ]);
  });

  it("writes Anthropic's names with reset times to the second, rounded up, on Messages", () => {
    const now = Date.UTC(2026, 10, 29, 12, 0, 4, 250);
    expect(rateLimitHeaders('messages', state(700, 30_000), now)).toEqual({
      'anthropic-ratelimit-requests-limit': '60',
      'anthropic-ratelimit-requests-remaining': '59',
      'anthropic-ratelimit-requests-reset': '2026-11-29T12:00:05Z',
      'anthropic-ratelimit-tokens-limit': '1000',
      'anthropic-ratelimit-tokens-remaining': '990',
      'anthropic-ratelimit-tokens-reset': '2026-11-29T12:00:35Z',
    });
  });

  it('formats each reset time afresh when its second changes, for each kind apart', () => {
    // The formatted second is remembered per kind: answers in turn, across seconds, each get their own.
    const start = Date.UTC(2026, 10, 29, 23, 59, 58, 0);
    for (let step = 0; step < 40; step += 1) {
      const now = start + step * 137;
      const headers = rateLimitHeaders('messages', state(step * 11, 60_000 - step * 7), now);
      const expected = (at: number) => new Date(Math.ceil(at / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      expect(headers['anthropic-ratelimit-requests-reset']).toBe(expected(now + step * 11));
      expect(headers['anthropic-ratelimit-tokens-reset']).toBe(expected(now + 60_000 - step * 7));
    }
  });
});
