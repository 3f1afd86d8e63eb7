import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CSRF tokens tied to the browser's session: an HMAC of the session cookie (or, before sign-in,
 * of a random pre-session cookie) under a secret the instances share. A form's token is checked
 * against the cookie the same request carries, so a page elsewhere can neither read nor forge it.
 */
export function csrfToken(secret: Buffer, binding: string): string {
  return createHmac('sha256', secret).update(`csrf:${binding}`).digest('base64url');
}

export function csrfTokenMatches(secret: Buffer, binding: string, presented: string | null): boolean {
  if (presented === null) return false;
  const expected = Buffer.from(csrfToken(secret, binding));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
