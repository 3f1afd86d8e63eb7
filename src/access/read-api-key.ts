import type { IncomingHttpHeaders } from 'node:http';

export type PresentedKey =
  | { kind: 'none' }
  | { kind: 'key'; key: string }
  /** `Bearer Bearer …`: a key typed with its scheme into a field that adds the scheme again. */
  | { kind: 'double-bearer' };

const bearer = /^Bearer\s+(.+)$/i;

/**
 * The key a caller presented: `Authorization: Bearer <key>` everywhere, and `x-api-key` where
 * Anthropic clients send it (`acceptXApiKey`).
 */
export function readApiKey(headers: IncomingHttpHeaders, acceptXApiKey: boolean): PresentedKey {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = bearer.exec(authorization.trim());
    if (match?.[1] !== undefined) {
      const key = match[1].trim();
      return bearer.test(key) ? { kind: 'double-bearer' } : { kind: 'key', key };
    }
  }
  const headerKey = headers['x-api-key'];
  if (acceptXApiKey && typeof headerKey === 'string' && headerKey !== '') {
    return bearer.test(headerKey.trim()) ? { kind: 'double-bearer' } : { kind: 'key', key: headerKey.trim() };
  }
  return { kind: 'none' };
}
