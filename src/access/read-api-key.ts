import type { IncomingHttpHeaders } from 'node:http';

export type PresentedKey =
  | { kind: 'none' }
  | { kind: 'key'; key: string }
  /** `Bearer Bearer …`: a key typed with its scheme into a field that adds the scheme again. */
  | { kind: 'double-bearer' };

/**
 * What follows a case-insensitive `Bearer` and at least one space, trimmed; undefined when `value`
 * (already trimmed) has no such scheme. String operations rather than a regular expression: this
 * runs on every request.
 */
function afterBearer(value: string): string | undefined {
  if (value.length < 8 || value.slice(0, 6).toLowerCase() !== 'bearer') return undefined;
  const rest = value.slice(6);
  const credentials = rest.trimStart();
  return credentials.length === rest.length || credentials === '' ? undefined : credentials;
}

/**
 * The key a caller presented: `Authorization: Bearer <key>` everywhere, and `x-api-key` where
 * Anthropic clients send it (`acceptXApiKey`).
 */
export function readApiKey(headers: IncomingHttpHeaders, acceptXApiKey: boolean): PresentedKey {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const key = afterBearer(authorization.trim());
    if (key !== undefined) return afterBearer(key) === undefined ? { kind: 'key', key } : { kind: 'double-bearer' };
  }
  const headerKey = headers['x-api-key'];
  if (acceptXApiKey && typeof headerKey === 'string' && headerKey !== '') {
    const key = headerKey.trim();
    return afterBearer(key) === undefined ? { kind: 'key', key } : { kind: 'double-bearer' };
  }
  return { kind: 'none' };
}
