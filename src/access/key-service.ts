import { appendAuditRow } from '../storage/admin-audit.js';
import type { StorageDb } from '../storage/schema.js';
import type { KeyCache } from './key-cache.js';
import type { RevocationChannel } from './revocation-channel.js';
import {
  createKey,
  getKey,
  liftKeyPause,
  listKeys,
  revokeKey,
  updateKey,
  type KeyChanges,
  type NewKey,
  type StoredKey,
} from './stored-keys.js';

/** How long telling the other instances of a revocation may take before the answer goes without it. */
const PUBLISH_DEADLINE_MS = 1_000;

/** Hears that the other instances could not be told of a change (Redis away or slow): they learn within their key cache TTL. */
export type PublishFailed = (publicId: string, error: unknown) => void;

/** Hears of a key created or revoked: its public id and name, never the key. */
export type KeyAudit = (event: 'created' | 'changed' | 'revoked' | 'unpaused', publicId: string, name?: string) => void;

/**
 * Stored keys as a gateway instance manages them: revoking one also drops it from this instance's
 * cache and, with Redis, from every other instance's at once.
 */
export class KeyService {
  readonly #db: () => Promise<StorageDb>;
  readonly #cache: KeyCache;
  readonly #audit: KeyAudit;
  readonly #publishFailed: PublishFailed;
  #revocations: RevocationChannel | undefined;

  /** `audit` hears of every key created or revoked here (public id and name only), for the operator's log. */
  constructor(
    db: () => Promise<StorageDb>,
    cache: KeyCache,
    audit: KeyAudit = () => undefined,
    publishFailed: PublishFailed = () => undefined,
  ) {
    this.#db = db;
    this.#cache = cache;
    this.#audit = audit;
    this.#publishFailed = publishFailed;
  }

  /**
   * Tells the other instances, for at most PUBLISH_DEADLINE_MS, and never fails the change: it is
   * already in the database, and an instance that missed the message drops the key from its cache
   * within the cache TTL anyway.
   */
  async #tellOthers(publicId: string): Promise<void> {
    const channel = this.#revocations;
    if (channel === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`Redis did not take the message within ${PUBLISH_DEADLINE_MS} ms`)), PUBLISH_DEADLINE_MS);
    });
    // Caught here, so a publish that fails after the deadline is no unhandled rejection.
    const sent = channel.publish(publicId).then(
      () => undefined,
      (error: unknown) => error ?? new Error('publish failed'),
    );
    try {
      const failure = await Promise.race([sent, late]);
      if (failure !== undefined) this.#publishFailed(publicId, failure);
    } finally {
      clearTimeout(timer);
    }
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
    await this.#tellOthers(publicId);
    return updated;
  }

  /**
   * Every instance drops these keys from its cache (as for a revocation): their owner was disabled
   * or enabled, so the next request with one reads its state again.
   */
  async forgetKeys(publicIds: readonly string[]): Promise<void> {
    for (const publicId of publicIds) this.#cache.forget(publicId);
    await Promise.all(publicIds.map((publicId) => this.#tellOthers(publicId)));
  }

  /**
   * Lifts the pause of a key paused for unusual spend, naming `actor` in the audit log; false when
   * it was not paused. Every instance drops the key from its cache (as for a revocation), so it
   * works again at once.
   */
  async liftPause(publicId: string, actor: { id: string; email: string }): Promise<boolean> {
    const db = await this.#db();
    const before = await getKey(db, publicId);
    const lifted = await liftKeyPause(db, publicId);
    if (lifted) {
      this.#audit('unpaused', publicId);
      await appendAuditRow(db, {
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'key.unpaused',
        target: publicId,
        detail: before?.paused?.reason,
      });
    }
    this.#cache.forget(publicId);
    await this.#tellOthers(publicId);
    return lifted;
  }

  /** Revokes a key; false when there is no such key or it was revoked already. */
  async revoke(publicId: string): Promise<boolean> {
    const revoked = await revokeKey(await this.#db(), publicId);
    if (revoked) this.#audit('revoked', publicId);
    this.#cache.forget(publicId);
    // Even when this instance revoked nothing new, others may still hold it: tell them.
    await this.#tellOthers(publicId);
    return revoked;
  }
}
