import type { RateLimitReading, RateLimitState } from '../canonical/index.js';
import { addAnswerHeader } from '../http/answer-headers.js';
import type { HttpResponse } from '../http/types.js';
import type { InboundCodec } from '../protocols/codec.js';

/** A wait as OpenAI writes it in `x-ratelimit-reset-*`: `120ms`, `1.5s`, `6m0s`. */
export function openAIDuration(ms: number): string {
  const rounded = Math.max(0, Math.ceil(ms));
  if (rounded < 1_000) return `${rounded}ms`;
  if (rounded < 60_000) return `${Number((rounded / 1000).toFixed(1))}s`;
  return `${Math.floor(rounded / 60_000)}m${Math.floor((rounded % 60_000) / 1000)}s`;
}

const openAINames = {
  requests: ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
  tokens: ['x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
} as const;
const anthropicNames = {
  requests: ['anthropic-ratelimit-requests-limit', 'anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-requests-reset'],
  tokens: ['anthropic-ratelimit-tokens-limit', 'anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset'],
} as const;

/** Where headers go: an answer's list (addAnswerHeader), or an object (the tests' view). */
type HeaderSink = (name: string, value: string) => void;

function addOpenAI(add: HeaderSink, kind: 'requests' | 'tokens', reading: RateLimitReading): void {
  const [limit, remaining, reset] = openAINames[kind];
  add(limit, String(reading.limit));
  add(remaining, String(reading.remaining));
  add(reset, openAIDuration(reading.resetMs));
}

/**
 * The last reset second formatted, for each kind: the answers of a second share it, and a
 * `toISOString` cost about 7k instructions (two an answer on Messages with limits on, 3 % of it).
 */
const lastReset = { requests: { second: Number.NaN, text: '' }, tokens: { second: Number.NaN, text: '' } };

/** RFC 3339, to the second, as Anthropic sends it: `2026-11-29T12:00:05Z`. */
function resetTime(kind: 'requests' | 'tokens', atMs: number): string {
  const second = Math.ceil(atMs / 1000);
  const last = lastReset[kind];
  if (last.second !== second) {
    last.second = second;
    last.text = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  }
  return last.text;
}

function addAnthropic(add: HeaderSink, kind: 'requests' | 'tokens', reading: RateLimitReading, now: number): void {
  const [limit, remaining, reset] = anthropicNames[kind];
  add(limit, String(reading.limit));
  add(remaining, String(reading.remaining));
  add(reset, resetTime(kind, now + reading.resetMs));
}

/** The caller's rate limits in the headers its provider would send: OpenAI's on Chat and Responses, Anthropic's on Messages. */
function addRateLimitHeaders(add: HeaderSink, protocol: InboundCodec['protocol'], state: RateLimitState, now: number): void {
  const { requests, tokens } = state;
  if (protocol === 'messages') {
    if (requests !== undefined) addAnthropic(add, 'requests', requests, now);
    if (tokens !== undefined) addAnthropic(add, 'tokens', tokens, now);
  } else {
    if (requests !== undefined) addOpenAI(add, 'requests', requests);
    if (tokens !== undefined) addOpenAI(add, 'tokens', tokens);
  }
}

/** The rate-limit headers `setRateLimitHeaders` adds, as an object. */
export function rateLimitHeaders(protocol: InboundCodec['protocol'], state: RateLimitState, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {};
  addRateLimitHeaders((name, value) => void (headers[name] = value), protocol, state, now);
  return headers;
}

/** Adds the rate-limit headers to the answer `res` is about to send. */
export function setRateLimitHeaders(res: HttpResponse, protocol: InboundCodec['protocol'], state: RateLimitState): void {
  if (!res.headersSent) addRateLimitHeaders((name, value) => addAnswerHeader(res, name, value), protocol, state, Date.now());
}
