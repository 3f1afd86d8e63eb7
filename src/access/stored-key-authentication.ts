import type { Caller } from '../canonical/index.js';
import { GatewayError, storeUnavailable } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import type { KeyCheck } from './authenticate-stage.js';
import { anyCaller } from './authenticate-stage.js';
import { authError, invalidKey, requirePresentedKey, type ApiKeyVerifier } from './authenticate.js';
import type { KeyCache } from './key-cache.js';
import { KEY_PREFIX, memoizedKeyParser } from './key-format.js';
import { KeyRowBatches } from './key-row-batches.js';
import { keyLookupOf, matchKeyRow, type KeyLookup, type StoredKey } from './stored-keys.js';
import { TOKEN_PREFIX, verifyToken, type TokenClaims } from './browser-tokens.js';

export interface StoredKeyAuthenticationOptions {
  /** The key store; undefined while it is not open (only cached keys work then). */
  db: () => StorageDb | undefined;
  cache: KeyCache;
  /** Keys from the options, which keep working beside stored keys. */
  verifyConfigured?: ApiKeyVerifier;
  /** Told of every accepted stored key (for its "last used" time); must not block. */
  onUsed?: (publicId: string) => void;
  /** The key browser tokens are signed with: synchronous once loaded. */
  tokenSecret: () => Buffer | Promise<Buffer>;
  now?: () => number;
}

type Refused = Exclude<KeyLookup, { ok: true }>;

const refusals: Record<Exclude<Refused['reason'], 'paused'>, () => GatewayError> = {
  'not-ours': invalidKey,
  unknown: invalidKey,
  checksum: () =>
    authError(
      'API_KEY_MISTYPED',
      "The API key has the gateway's key format but its checksum does not match: it was copied incompletely or mistyped.",
    ),
  revoked: () => authError('API_KEY_REVOKED', 'The API key was revoked. Create a new key in the console.'),
  expired: () => authError('API_KEY_EXPIRED', 'The API key has expired. Create a new key in the console.'),
  disabled: () => authError('ACCOUNT_DISABLED', "The API key's account is disabled. Ask an admin of this gateway."),
};

/** A key paused for unusual spend: refused (403, never retried) until an admin lifts the pause. */
function keyPaused(lookup: Extract<Refused, { reason: 'paused' }>): GatewayError {
  return new GatewayError({
    code: 'KEY_PAUSED',
    message: `The API key ${lookup.publicId} is paused after unusual spend${lookup.pause.reason === undefined ? '' : ` (${lookup.pause.reason})`}. An admin of this gateway can lift the pause in the console.`,
  });
}

const refusalOf = (lookup: Refused): GatewayError => (lookup.reason === 'paused' ? keyPaused(lookup) : refusals[lookup.reason]());

const keyStoreUnavailable = (cause: unknown) => storeUnavailable('KEY_STORE_UNAVAILABLE', cause);

/** A key-store read that failed (the database is away) as the caller's 503. */
function orUnavailable<T>(pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    throw keyStoreUnavailable(error);
  });
}

/**
 * The "authenticate" stage with stored keys (`sk-sy-…`) beside the keys from the options. A stored
 * key is checked from the in-process cache when it can be (synchronously), else in the database;
 * the caller it yields carries the key's public id, name and model allowlist.
 */
export function createStoredKeyAuthentication(options: StoredKeyAuthenticationOptions): KeyCheck {
  const { db, cache, verifyConfigured, onUsed } = options;
  const parseKey = memoizedKeyParser();
  const now = options.now ?? Date.now;

  // A cached key is the same object from request to request, and so is its caller (a Caller is
  // read-only): made once, not per request (hot-path rules 1 and 4).
  const callers = new WeakMap<StoredKey, Caller>();
  const callerOf = (lookup: KeyLookup): Caller => {
    if (!lookup.ok) throw refusalOf(lookup);
    const key: StoredKey = lookup.key;
    // A cached answer may outlive the key's expiry by up to the cache's lifetime; not the check.
    if (key.expiresAt !== undefined && key.expiresAt <= now()) throw refusals.expired();
    onUsed?.(key.publicId);
    let caller = callers.get(key);
    if (caller === undefined) {
      caller = {
        keyId: key.publicId,
        keyName: key.name,
        ...(key.models === undefined ? {} : { models: key.models }),
        ...(key.budget === undefined ? {} : { budget: key.budget }),
        ...(key.limits === undefined ? {} : { limits: key.limits }),
        ...(key.owner === undefined ? {} : { account: key.owner }),
      };
      callers.set(key, caller);
    }
    return caller;
  };

  // Keys not in the cache are read many to a query: forged keys must not cost a query each.
  const rows = new KeyRowBatches(db);

  const lookupById = (publicId: string) => cache.lookup(`id:${publicId}`, async () => keyLookupOf(await rows.find(publicId), now()));

  /** A browser token's caller: its parent key's, narrowed to the token's models, with the token's id and cap. */
  const tokenCallerOf = (claims: TokenClaims, parent: KeyLookup): Caller => {
    const caller = callerOf(parent);
    const models = claims.models === undefined ? caller.models : claims.models.filter((model) => caller.models?.includes(model) ?? true);
    return {
      ...caller,
      ...(models === undefined ? {} : { models }),
      token: {
        id: claims.id,
        expiresAt: claims.expiresAt,
        ...(claims.spendCapNanoUsd === undefined ? {} : { spendCapNanoUsd: claims.spendCapNanoUsd }),
      },
    };
  };

  const tokenCallerWith = (secret: Buffer, presented: string): Caller | Promise<Caller> => {
    const check = verifyToken(secret, presented, now());
    if (!check.ok) {
      throw check.reason === 'expired'
        ? authError('TOKEN_EXPIRED', 'The browser token has expired. Ask your server for a new one.')
        : invalidKey();
    }
    const parent = lookupById(check.claims.parent);
    if (!(parent instanceof Promise)) return tokenCallerOf(check.claims, parent);
    return orUnavailable(parent).then((lookup) => tokenCallerOf(check.claims, lookup));
  };

  const tokenCaller = (presented: string): Caller | Promise<Caller> => {
    const secret = options.tokenSecret();
    if (!(secret instanceof Promise)) return tokenCallerWith(secret, presented);
    return orUnavailable(secret).then((loaded) => tokenCallerWith(loaded, presented));
  };

  const storedCaller = (presented: string): Caller | Promise<Caller> => {
    if (presented.startsWith(TOKEN_PREFIX)) return tokenCaller(presented);
    const parsed = parseKey(presented);
    if (!parsed.ok) throw refusals[parsed.reason]();
    const lookup = cache.lookup(parsed.secretHash, async () => matchKeyRow(await rows.find(parsed.publicId), parsed, now()));
    if (!(lookup instanceof Promise)) return callerOf(lookup);
    return orUnavailable(lookup).then(callerOf);
  };

  return (headers, acceptXApiKey) => {
    const presented = requirePresentedKey(headers, acceptXApiKey);
    // A key in the stored formats is looked up as one; keys from the options are any other string.
    if (presented.startsWith(KEY_PREFIX) || presented.startsWith(TOKEN_PREFIX)) return storedCaller(presented);
    const configured = verifyConfigured?.(presented) ?? false;
    if (configured === true) return anyCaller;
    if (configured === false) return storedCaller(presented);
    return configured.then((valid) => (valid ? anyCaller : storedCaller(presented)));
  };
}
