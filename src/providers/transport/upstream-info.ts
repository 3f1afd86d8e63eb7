import type { IncomingHttpHeaders } from 'node:http';
import type { UpstreamResponseInfo } from '../types.js';

/** The header name prefixes of rate-limit state: OpenAI and OpenAI-compatible servers, Anthropic. */
const rateLimitPrefixes = ['x-ratelimit-', 'anthropic-ratelimit-'];

/** What `reportUpstream` is told of an upstream answer: its status, its request id, its rate-limit headers. */
export function readUpstreamInfo(status: number, headers: IncomingHttpHeaders): UpstreamResponseInfo {
  const info: UpstreamResponseInfo = { status };
  const requestId = headers['x-request-id'] ?? headers['request-id'];
  if (typeof requestId === 'string') info.requestId = requestId;
  let rateLimit: Record<string, string> | undefined;
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string') continue;
    if (name === 'retry-after' || rateLimitPrefixes.some((prefix) => name.startsWith(prefix))) (rateLimit ??= {})[name] = value;
  }
  if (rateLimit !== undefined) info.rateLimit = rateLimit;
  return info;
}
