import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError, type ErrorCode } from '../canonical/index.js';
import { readApiKey, type PresentedKey } from './read-api-key.js';

/** Decides whether a presented key may use the gateway. */
export type ApiKeyVerifier = (key: string) => boolean | Promise<boolean>;

export function authError(code: ErrorCode, message: string): GatewayError {
  return new GatewayError({ code, message });
}

export const invalidKey = () => authError('INVALID_API_KEY', 'The API key is not valid for this gateway.');

/**
 * Why no key was read, for a header that held something else: where it was found and how to send
 * it instead. Names the header and a scheme word at most, never what may be the key.
 */
function misplacedKeyMessage(presented: Extract<PresentedKey, { kind: 'misplaced' }>, where: string): string {
  if (presented.header === 'x-api-key') {
    return (
      "No API key was read: a key was sent in the 'x-api-key' header, which Anthropic clients use, and this " +
      "OpenAI-style endpoint reads it from the Authorization header. Send it as 'Authorization: Bearer <key>' " +
      '(the OpenAI SDKs do this with their apiKey option).'
    );
  }
  const { scheme } = presented;
  const found =
    scheme === undefined
      ? "the Authorization header holds a value without the 'Bearer ' scheme (the key alone?)"
      : scheme.toLowerCase() === 'bearer'
        ? "the Authorization header says 'Bearer' with no key after it"
        : `the Authorization header uses the '${scheme}' scheme, and this gateway reads only 'Bearer'`;
  return `No API key was read: ${found}. Send your gateway key as ${where}.`;
}

/**
 * The key the request carries; throws a 401 GatewayError when there is none (saying where a
 * misplaced one was found), or it was sent as `Bearer Bearer …`. Never echoes the key.
 */
export function requirePresentedKey(headers: IncomingHttpHeaders, acceptXApiKey: boolean): string {
  const presented = readApiKey(headers, acceptXApiKey);
  if (presented.kind === 'key') return presented.key;
  const where = acceptXApiKey ? "'Authorization: Bearer <key>' or in an 'x-api-key' header" : "'Authorization: Bearer <key>'";
  if (presented.kind === 'none') throw authError('MISSING_API_KEY', `No API key was sent. Send your gateway key as ${where}.`);
  if (presented.kind === 'misplaced') throw authError('MISSING_API_KEY', misplacedKeyMessage(presented, where));
  throw authError(
    'DOUBLE_BEARER',
    "The key was sent as 'Bearer Bearer …': the client adds 'Bearer ' itself, so configure the key alone, without the 'Bearer ' prefix.",
  );
}

/**
 * Throws a 401 GatewayError unless the request carries a key `verify` accepts. Never echoes the key.
 * Synchronous when `verify` is; a promise only when `verify` returns one.
 */
export function authenticate(headers: IncomingHttpHeaders, verify: ApiKeyVerifier, acceptXApiKey: boolean): Promise<void> | undefined {
  const verdict = verify(requirePresentedKey(headers, acceptXApiKey));
  if (verdict === true) return undefined;
  if (verdict === false) throw invalidKey();
  return verdict.then((valid) => {
    if (!valid) throw invalidKey();
  });
}
