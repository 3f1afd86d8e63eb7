import type { Caller } from '../canonical/index.js';
import { GatewayError } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import type { AuthenticateStage } from './authenticate-stage.js';
import { anyCaller } from './authenticate-stage.js';
import { authError, invalidKey, requirePresentedKey, type ApiKeyVerifier } from './authenticate.js';
import type { KeyCache } from './key-cache.js';
import { parseKey } from './key-format.js';
import { findParsedKey, type KeyLookup, type StoredKey } from './stored-keys.js';

export interface StoredKeyAuthenticationOptions {
  /** The key store; undefined while it is not open (only cached keys work then). */
  db: () => StorageDb | undefined;
  cache: KeyCache;
  /** Keys from the options, which keep working beside stored keys. */
  verifyConfigured?: ApiKeyVerifier;
  /** Told of every accepted stored key (for its "last used" time); must not block. */
  onUsed?: (publicId: string) => void;
  now?: () => number;
}

const refusals: Record<Exclude<KeyLookup, { ok: true }>['reason'], () => GatewayError> = {
  'not-ours': invalidKey,
  unknown: invalidKey,
  checksum: () =>
    authError('API_KEY_MISTYPED', "The API key has the gateway's key format but its checksum does not match: it was copied incompletely or mistyped."),
  revoked: () => authError('API_KEY_REVOKED', 'The API key was revoked. Create a new key in the console.'),
  expired: () => authError('API_KEY_EXPIRED', 'The API key has expired. Create a new key in the console.'),
};

function keyStoreUnavailable(cause: unknown): GatewayError {
  return new GatewayError({
    kind: 'overloaded',
    code: 'KEY_STORE_UNAVAILABLE',
    message: 'The gateway cannot check the API key right now: its key store is unreachable. Retry shortly.',
    retryAfter: 1,
    cause,
  });
}

/**
 * The "authenticate" stage with stored keys (`sk-sy-…`) beside the keys from the options. A stored
 * key is checked from the in-process cache when it can be (synchronously), else in the database;
 * the caller it yields carries the key's public id, name and model allowlist.
 */
export function createStoredKeyAuthentication(options: StoredKeyAuthenticationOptions): AuthenticateStage {
  const { db, cache, verifyConfigured, onUsed } = options;
  const now = options.now ?? Date.now;

  const callerOf = (lookup: KeyLookup): Caller => {
    if (!lookup.ok) throw refusals[lookup.reason]();
    const key: StoredKey = lookup.key;
    // A cached answer may outlive the key's expiry by up to the cache's lifetime; not the check.
    if (key.expiresAt !== undefined && key.expiresAt <= now()) throw refusals.expired();
    onUsed?.(key.publicId);
    return {
      keyId: key.publicId,
      keyName: key.name,
      ...(key.models === undefined ? {} : { models: key.models }),
      ...(key.budget === undefined ? {} : { budget: key.budget }),
    };
  };

  const storedCaller = (presented: string): Caller | Promise<Caller> => {
    const parsed = parseKey(presented);
    if (!parsed.ok) throw refusals[parsed.reason]();
    const lookup = cache.lookup(parsed.secretHash, async () => {
      const store = db();
      if (store === undefined) throw new Error('the key store is not open yet');
      return findParsedKey(store, parsed, now());
    });
    if (!(lookup instanceof Promise)) return callerOf(lookup);
    return lookup.then(callerOf, (error: unknown) => {
      throw keyStoreUnavailable(error);
    });
  };

  return {
    authenticate(headers, acceptXApiKey) {
      const presented = requirePresentedKey(headers, acceptXApiKey);
      const configured = verifyConfigured?.(presented) ?? false;
      if (configured === true) return anyCaller;
      if (configured === false) return storedCaller(presented);
      return configured.then((valid) => (valid ? anyCaller : storedCaller(presented)));
    },
  };
}
