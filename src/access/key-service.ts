import type { StorageDb } from '../storage/schema.js';
import type { KeyCache } from './key-cache.js';
import type { RevocationChannel } from './revocation-channel.js';
import { createKey, getKey, listKeys, revokeKey, updateKey, type KeyChanges, type NewKey, type StoredKey } from './stored-keys.js';

/** Hears of a key created or revoked: its public id and name, never the key. */
export type KeyAudit = (event: 'created' | 'changed' | 'revoked', publicId: string, name?: string) => void;

/**
 * Stored keys as a gateway instance manages them: revoking one also drops it from this instance's
 * cache and, with Redis, from every other instance's at once.
 */
export class KeyService {
  readonly #db: () => Promise<StorageDb>;
  readonly #cache: KeyCache;
  readonly #audit: KeyAudit;
  #revocations: RevocationChannel | undefined;

  /** `audit` hears of every key created or revoked here (public id and name only), for the operator's log. */
  constructor(db: () => Promise<StorageDb>, cache: KeyCache, audit: KeyAudit = () => undefined) {
    this.#db = db;
    this.#cache = cache;
    this.#audit = audit;
  }

  /** Revocations go through `channel` from now on. */
  useRevocationChannel(channel: RevocationChannel): void {
    this.#revocations = channel;
  }

  /** A new key; `key` is the only time the whole key is seen: show it once. */
  async create(init: NewKey): Promise<{ key: string; stored: StoredKey }> {
    const created = await createKey(await this.#db(), init);
    this.#audit('created', created.stored.publicId, created.stored.name);
    return created;
  }

  async list(): Promise<StoredKey[]> {
    return listKeys(await this.#db());
  }

  async get(publicId: string): Promise<StoredKey | undefined> {
    return getKey(await this.#db(), publicId);
  }

  /**
   * Changes a key's name, models, limits, budget or expiry; false when there is no such live key.
   * Every instance drops the key from its cache (as for a revocation), so the change holds at once.
   */
  async update(publicId: string, changes: KeyChanges): Promise<boolean> {
    const updated = await updateKey(await this.#db(), publicId, changes);
    if (updated) this.#audit('changed', publicId);
    this.#cache.forget(publicId);
    await this.#revocations?.publish(publicId);
    return updated;
  }

  /** Revokes a key; false when there is no such key or it was revoked already. */
  async revoke(publicId: string): Promise<boolean> {
    const revoked = await revokeKey(await this.#db(), publicId);
    if (revoked) this.#audit('revoked', publicId);
    this.#cache.forget(publicId);
    // Even when this instance revoked nothing new, others may still hold it: tell them.
    await this.#revocations?.publish(publicId);
    return revoked;
  }
}
