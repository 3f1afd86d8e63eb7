import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRow, StorageDb } from '../storage/schema.js';
import { mintKey, parseKey, type ParsedKey } from './key-format.js';

export type BudgetPeriod = 'day' | 'month' | 'never';

/** A key's own limits; the configured defaults apply to what is absent. */
export interface KeyOwnLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  concurrency?: number;
}

export interface NewKey {
  name: string;
  /** Model ids the key may call; every model when absent. */
  models?: readonly string[];
  /** Epoch milliseconds after which the key is refused. */
  expiresAt?: number;
  budget?: { nanoUsd: number; period: BudgetPeriod };
  limits?: KeyOwnLimits;
}

/** A stored key as it may be shown: never its secret. */
export interface StoredKey {
  publicId: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | undefined;
  expiresAt: number | undefined;
  revokedAt: number | undefined;
  models: readonly string[] | undefined;
  budget: { nanoUsd: number; period: BudgetPeriod } | undefined;
  limits: KeyOwnLimits | undefined;
  /** Set while the key is paused for unusual spend: refused until an admin lifts it. */
  paused?: KeyPause;
  /** When its spend was flagged as unusual, while it is. */
  unusualSpendAt?: number;
  /** The console user who owns the key (its account), when one does and the lookup read it. */
  owner?: { id: string; email: string | undefined; admin: boolean };
}

/** A key row as authentication reads it: with its owner, and when the owner was disabled. */
export type KeyRowWithOwner = ApiKeyRow & {
  owner_id?: string | null;
  owner_email?: string | null;
  owner_is_admin?: number | null;
  owner_disabled_at?: number | string | null;
};

/** A key paused for unusual spend: since when, and why (the hour's spend against its average). */
export interface KeyPause {
  at: number;
  reason: string | undefined;
}

export type KeyLookup =
  | { ok: true; key: StoredKey }
  /** `not-ours`: not a stored-key shape; `checksum`: mistyped; the rest: a real key that may not be used. */
  | { ok: false; reason: 'not-ours' | 'checksum' | 'unknown' | 'revoked' | 'expired' }
  /** The key's owner is disabled: refused until an admin enables them (the public id lets a cache forget it then). */
  | { ok: false; reason: 'disabled'; publicId: string }
  /** The key is paused for unusual spend: refused until an admin lifts it (the public id lets a cache forget it then). */
  | { ok: false; reason: 'paused'; publicId: string; pause: KeyPause };

const optional = (value: number | string | null): number | undefined => (value === null ? undefined : Number(value));

function storedKeyOf(row: KeyRowWithOwner): StoredKey {
  return {
    ...(row.owner_id === null || row.owner_id === undefined
      ? {}
      : { owner: { id: row.owner_id, email: row.owner_email ?? undefined, admin: Number(row.owner_is_admin) === 1 } }),
    publicId: row.public_id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: optional(row.last_used_at),
    expiresAt: optional(row.expires_at),
    revokedAt: optional(row.revoked_at),
    models: row.models === null ? undefined : (JSON.parse(row.models) as string[]),
    budget:
      row.budget_nano_usd === null
        ? undefined
        : { nanoUsd: Number(row.budget_nano_usd), period: (row.budget_period ?? 'never') as BudgetPeriod },
    limits: row.limits === null || row.limits === undefined ? undefined : (JSON.parse(row.limits) as KeyOwnLimits),
    ...(row.paused_at === null || row.paused_at === undefined
      ? {}
      : { paused: { at: Number(row.paused_at), reason: row.pause_reason ?? undefined } }),
    ...(row.unusual_spend_at === null || row.unusual_spend_at === undefined ? {} : { unusualSpendAt: Number(row.unusual_spend_at) }),
  };
}

/** Creates a key. The returned `key` is the only time the whole key exists outside its owner's hands. */
export async function createKey(db: StorageDb, init: NewKey, now = Date.now()): Promise<{ key: string; stored: StoredKey }> {
  const minted = mintKey();
  const row = {
    public_id: minted.publicId,
    name: init.name,
    secret_hash: minted.secretHash,
    created_at: now,
    last_used_at: null,
    expires_at: init.expiresAt ?? null,
    revoked_at: null,
    models: init.models === undefined ? null : JSON.stringify(init.models),
    budget_nano_usd: init.budget?.nanoUsd ?? null,
    budget_period: init.budget?.period ?? null,
    limits: init.limits === undefined || Object.keys(init.limits).length === 0 ? null : JSON.stringify(init.limits),
    unusual_spend_at: null,
    paused_at: null,
    pause_reason: null,
  };
  await db.insertInto('api_keys').values(row).execute();
  return { key: minted.key, stored: storedKeyOf(row) };
}

/** Finds the stored key a caller presented, and whether it may be used at `now`. */
export async function findKey(db: StorageDb, presented: string, now = Date.now()): Promise<KeyLookup> {
  const parsed = parseKey(presented);
  return parsed.ok ? findParsedKey(db, parsed, now) : parsed;
}

/** `findKey` for a key already parsed (its shape and checksum checked). */
export async function findParsedKey(db: StorageDb, parsed: Extract<ParsedKey, { ok: true }>, now = Date.now()): Promise<KeyLookup> {
  const row = await db.selectFrom('api_keys').selectAll().where('public_id', '=', parsed.publicId).executeTakeFirst();
  return matchKeyRow(row, parsed, now);
}

/** What the stored row of a presented key's public id says of it: unknown unless its secret matches. */
export function matchKeyRow(row: KeyRowWithOwner | undefined, parsed: Extract<ParsedKey, { ok: true }>, now = Date.now()): KeyLookup {
  // Compared in constant time, though a hash of a random secret leaks little by its timing.
  const matches =
    row !== undefined &&
    row.secret_hash.length === parsed.secretHash.length &&
    timingSafeEqual(Buffer.from(row.secret_hash), Buffer.from(parsed.secretHash));
  return matches ? keyLookupOf(row, now) : { ok: false, reason: 'unknown' };
}

/** Every stored key, oldest first. */
export async function listKeys(db: StorageDb): Promise<StoredKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('public_id').execute();
  return rows.map(storedKeyOf);
}

/** Revokes a key for good; false when no key has that public id or it was revoked already. */
export async function revokeKey(db: StorageDb, publicId: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('public_id', '=', publicId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What may change on a key after it was made; `null` clears a setting (every model, no expiry, no budget, the defaults). */
export interface KeyChanges {
  name?: string;
  models?: readonly string[] | null;
  expiresAt?: number | null;
  budget?: { nanoUsd: number; period: BudgetPeriod } | null;
  limits?: KeyOwnLimits | null;
}

/** Changes a key that is not revoked; false when there is no such key (or it was revoked). */
export async function updateKey(db: StorageDb, publicId: string, changes: KeyChanges): Promise<boolean> {
  const set: {
    name?: string;
    models?: string | null;
    expires_at?: number | null;
    budget_nano_usd?: number | null;
    budget_period?: string | null;
    limits?: string | null;
  } = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.models !== undefined) set.models = changes.models === null ? null : JSON.stringify(changes.models);
  if (changes.expiresAt !== undefined) set.expires_at = changes.expiresAt;
  if (changes.budget !== undefined) {
    set.budget_nano_usd = changes.budget?.nanoUsd ?? null;
    set.budget_period = changes.budget?.period ?? null;
  }
  if (changes.limits !== undefined)
    set.limits = changes.limits === null || Object.keys(changes.limits).length === 0 ? null : JSON.stringify(changes.limits);
  if (Object.keys(set).length === 0) return (await findKeyById(db, publicId)).ok;
  const result = await db
    .updateTable('api_keys')
    .set(set)
    .where('public_id', '=', publicId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The stored key with this public id, whatever its state; undefined when there is none. */
export async function getKey(db: StorageDb, publicId: string): Promise<StoredKey | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  return row === undefined ? undefined : storedKeyOf(row);
}

/** The stored key with this public id, and whether it may be used at `now` (a browser token's parent). */
export async function findKeyById(db: StorageDb, publicId: string, now = Date.now()): Promise<KeyLookup> {
  const row = await db.selectFrom('api_keys').selectAll().where('public_id', '=', publicId).executeTakeFirst();
  return keyLookupOf(row, now);
}

/** Whether the key of a stored row (undefined: none) may be used at `now`. */
export function keyLookupOf(row: KeyRowWithOwner | undefined, now = Date.now()): KeyLookup {
  if (row === undefined) return { ok: false, reason: 'unknown' };
  const key = storedKeyOf(row);
  if (key.revokedAt !== undefined) return { ok: false, reason: 'revoked' };
  if (row.owner_disabled_at !== null && row.owner_disabled_at !== undefined)
    return { ok: false, reason: 'disabled', publicId: key.publicId };
  if (key.paused !== undefined) return { ok: false, reason: 'paused', publicId: key.publicId, pause: key.paused };
  if (key.expiresAt !== undefined && key.expiresAt <= now) return { ok: false, reason: 'expired' };
  return { ok: true, key };
}

/** Lifts a key's pause; false when it was not paused (or there is no such key). */
export async function liftKeyPause(db: StorageDb, publicId: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ paused_at: null, pause_reason: null })
    .where('public_id', '=', publicId)
    .where('paused_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
