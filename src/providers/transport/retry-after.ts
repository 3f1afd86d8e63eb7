import type { IncomingHttpHeaders } from 'node:http';

type Headers = IncomingHttpHeaders | Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Seconds to wait, from `retry-after-ms` (OpenAI; preferred) or `retry-after` (seconds or an
 * HTTP date). Undefined when absent or unreadable.
 */
export function readRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(first(headers['retry-after-ms']) ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds / 1000;
  const value = first(headers['retry-after'])?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
