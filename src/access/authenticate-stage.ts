import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../canonical/index.js';
import { authenticate, type ApiKeyVerifier } from './authenticate.js';

/**
 * What the "authenticate" stage asks (src/pipeline/stages/authenticate.ts): finds who is calling
 * from the request's headers, or throws a 401 GatewayError. `acceptXApiKey` is true on
 * Anthropic-style calls, whose clients send `x-api-key`. Synchronous when it can be; a promise
 * only when the check must wait.
 */
export type KeyCheck = (headers: IncomingHttpHeaders, acceptXApiKey: boolean) => Caller | Promise<Caller>;

/** A caller known only to hold a valid key (or to need none). */
export const anyCaller: Caller = Object.freeze({});

/** Checks keys with `verifyKey` when keys are required; lets everyone in otherwise. */
export function createKeyCheck(verifyKey: ApiKeyVerifier | undefined, requireApiKey: boolean): KeyCheck {
  if (!requireApiKey || verifyKey === undefined) return () => anyCaller;
  return (headers, acceptXApiKey) => {
    const pending = authenticate(headers, verifyKey, acceptXApiKey);
    return pending === undefined ? anyCaller : pending.then(() => anyCaller);
  };
}
