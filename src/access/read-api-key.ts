import type { IncomingHttpHeaders } from 'node:http';

export type PresentedKey =
  | { kind: 'none' }
  | { kind: 'key'; key: string }
  /** `Bearer Bearer …`: a key typed with its scheme into a field that adds the scheme again. */
  | { kind: 'double-bearer' }
  /**
   * No key where this endpoint reads one, but something that may be one elsewhere: an
   * `Authorization` header without `Bearer <key>` (`scheme` is its first word when that looks like
   * a scheme, never the credentials), or `x-api-key` on an endpoint that reads only `Authorization`.
   */
  | { kind: 'misplaced'; header: 'authorization' | 'x-api-key'; scheme?: string };

/** A first word short and plain enough to be an auth scheme (`Basic`, `Token`), not part of a key. */
const schemeLike = /^[A-Za-z]{1,20}$/;

/** What was sent instead of a key this endpoint reads; `none` when nothing was. Only runs without a key. */
function misplacedKey(authorization: string | undefined, headerKey: unknown): PresentedKey {
  const value = authorization?.trim() ?? '';
  if (value !== '') {
    const space = value.search(/\s/);
    const first = space < 0 ? value : value.slice(0, space);
    // A single word is the key itself, sent without a scheme: never repeated.
    const scheme = (space >= 0 || first.toLowerCase() === 'bearer') && schemeLike.test(first) ? first : undefined;
    return { kind: 'misplaced', header: 'authorization', ...(scheme === undefined ? {} : { scheme }) };
  }
  if (typeof headerKey === 'string' && headerKey.trim() !== '') return { kind: 'misplaced', header: 'x-api-key' };
  return { kind: 'none' };
}

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
 * Anthropic clients send it (`acceptXApiKey`). Without one, says what was sent instead (`misplaced`).
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
  return misplacedKey(authorization, acceptXApiKey ? undefined : headerKey);
}
