import type { RateLimitReading, RateLimitState } from '../canonical/index.js';
import { addAnswerHeaders } from '../http/answer-headers.js';
import type { HttpResponse } from '../http/types.js';
import type { InboundCodec } from '../protocols/codec.js';

/** A wait as OpenAI writes it in `x-ratelimit-reset-*`: `120ms`, `1.5s`, `6m0s`. */
export function openAIDuration(ms: number): string {
  const rounded = Math.max(0, Math.ceil(ms));
  if (rounded < 1_000) return `${rounded}ms`;
  if (rounded < 60_000) return `${Number((rounded / 1000).toFixed(1))}s`;
  return `${Math.floor(rounded / 60_000)}m${Math.floor((rounded % 60_000) / 1000)}s`;
}

function addOpenAI(headers: Record<string, string>, kind: 'requests' | 'tokens', reading: RateLimitReading): void {
  headers[`x-ratelimit-limit-${kind}`] = String(reading.limit);
  headers[`x-ratelimit-remaining-${kind}`] = String(reading.remaining);
  headers[`x-ratelimit-reset-${kind}`] = openAIDuration(reading.resetMs);
}

function addAnthropic(headers: Record<string, string>, kind: 'requests' | 'tokens', reading: RateLimitReading, now: number): void {
  headers[`anthropic-ratelimit-${kind}-limit`] = String(reading.limit);
  headers[`anthropic-ratelimit-${kind}-remaining`] = String(reading.remaining);
  // RFC 3339, to the second, as Anthropic sends it.
  headers[`anthropic-ratelimit-${kind}-reset`] = new Date(Math.ceil((now + reading.resetMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The caller's rate limits in the headers its provider would send: OpenAI's on Chat and Responses, Anthropic's on Messages. */
export function rateLimitHeaders(protocol: InboundCodec['protocol'], state: RateLimitState, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const kind of ['requests', 'tokens'] as const) {
    const reading = state[kind];
    if (reading === undefined) continue;
    if (protocol === 'messages') addAnthropic(headers, kind, reading, now);
    else addOpenAI(headers, kind, reading);
  }
  return headers;
}

/** Adds the rate-limit headers to the answer `res` is about to send. */
export function setRateLimitHeaders(res: HttpResponse, protocol: InboundCodec['protocol'], state: RateLimitState): void {
  if (!res.headersSent) addAnswerHeaders(res, rateLimitHeaders(protocol, state));
}
