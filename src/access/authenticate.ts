import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../canonical/index.js';
import { readApiKey } from './read-api-key.js';

/** Decides whether a presented key may use the gateway. */
export type ApiKeyVerifier = (key: string) => boolean | Promise<boolean>;

function authError(code: string, message: string): GatewayError {
  return new GatewayError({ kind: 'authentication', code, message });
}

const invalidKey = () => authError('INVALID_API_KEY', 'The API key is not valid for this gateway.');

/**
 * Throws a 401 GatewayError unless the request carries a key `verify` accepts. Never echoes the key.
 * Synchronous when `verify` is; a promise only when `verify` returns one.
 */
export function authenticate(
  headers: IncomingHttpHeaders,
  verify: ApiKeyVerifier,
  acceptXApiKey: boolean,
): Promise<void> | undefined {
  const presented = readApiKey(headers, acceptXApiKey);
  const where = acceptXApiKey ? "an 'x-api-key' header or 'Authorization: Bearer <key>'" : "'Authorization: Bearer <key>'";
  if (presented.kind === 'none') {
    throw authError('MISSING_API_KEY', `No API key was sent. Send your gateway key in ${where}.`);
  }
  if (presented.kind === 'double-bearer') {
    throw authError(
      'DOUBLE_BEARER',
      "The key was sent as 'Bearer Bearer …': the client adds 'Bearer ' itself, so configure the key alone, without the 'Bearer ' prefix.",
    );
  }
  const verdict = verify(presented.key);
  if (verdict === true) return undefined;
  if (verdict === false) throw invalidKey();
  return verdict.then((valid) => {
    if (!valid) throw invalidKey();
  });
}
