import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../canonical/index.js';
import { readApiKey } from './read-api-key.js';

/** Decides whether a presented key may use the gateway. */
export type ApiKeyVerifier = (key: string) => boolean | Promise<boolean>;

export function authError(code: string, message: string): GatewayError {
  return new GatewayError({ kind: 'authentication', code, message });
}

export const invalidKey = () => authError('INVALID_API_KEY', 'The API key is not valid for this gateway.');

/**
 * The key the request carries; throws a 401 GatewayError when there is none, or it was sent as
 * `Bearer Bearer …`. Never echoes the key.
 */
export function requirePresentedKey(headers: IncomingHttpHeaders, acceptXApiKey: boolean): string {
  const presented = readApiKey(headers, acceptXApiKey);
  if (presented.kind === 'key') return presented.key;
  if (presented.kind === 'none') {
    const where = acceptXApiKey ? "an 'x-api-key' header or 'Authorization: Bearer <key>'" : "'Authorization: Bearer <key>'";
    throw authError('MISSING_API_KEY', `No API key was sent. Send your gateway key in ${where}.`);
  }
  throw authError(
    'DOUBLE_BEARER',
    "The key was sent as 'Bearer Bearer …': the client adds 'Bearer ' itself, so configure the key alone, without the 'Bearer ' prefix.",
  );
}

/**
 * Throws a 401 GatewayError unless the request carries a key `verify` accepts. Never echoes the key.
 * Synchronous when `verify` is; a promise only when `verify` returns one.
 */
export function authenticate(
  headers: IncomingHttpHeaders,
  verify: ApiKeyVerifier,
  acceptXApiKey: boolean,
): Promise<void> | undefined {
  const verdict = verify(requirePresentedKey(headers, acceptXApiKey));
  if (verdict === true) return undefined;
  if (verdict === false) throw invalidKey();
  return verdict.then((valid) => {
    if (!valid) throw invalidKey();
  });
}
