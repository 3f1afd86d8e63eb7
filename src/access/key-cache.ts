import type { KeyLookup } from './stored-keys.js';

export interface KeyCacheOptions {
  /** How long a lookup is trusted: a key revoked on another instance is refused at most this late (without Redis). */
  ttlMs: number;
  /** How long a good key keeps working from the cache while the database cannot be reached. */
  staleMs: number;
  /** Entries kept at most, for keys that exist and apart for keys that do not; the oldest goes first. */
  maxEntries: number;
  /**
   * How long a request waits for the refresh of an entry past its TTL before it is answered from
   * the cache (default 250 ms): long enough for a database that answers, so a key revoked from the
   * CLI is refused on the first request after the TTL; short enough that a stalled one never holds it.
   */
  refreshWaitMs?: number;
  now?: () => number;
}

/** The share of the TTL after which a key in use is looked up again in the background. */
const REFRESH_AHEAD = 0.8;

interface Entry {
  lookup: KeyLookup;
  fetchedAt: number;
  /** The lookup of this key already under way, so that a burst of requests makes one query. */
  refreshing?: Promise<KeyLookup>;
  /** When `refreshing` was sent (the cache's clock): requests wait for it within `refreshWaitMs` of this, not of their own arrival. */
  refreshSentAt?: number;
}

/**
 * Stored-key lookups, cached in process so that the request path does not wait for the database:
 * a cached answer is returned synchronously, and a key in use is looked up again in the background
 * once its entry is older than 80 % of the TTL; past the TTL a request waits for that lookup, for
 * `refreshWaitMs` after it was sent at most. Entries are keyed by the hash of the key's secret,
 * never the key itself. While lookups fail (the database is away) a good key keeps working from
 * its last answer for `staleMs`; after that, and for a key never seen, the request fails.
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  /**
   * Answers for keys that do not exist, kept apart: anyone can make keys of the right shape with a
   * valid checksum, and a flood of them must not push real keys out (a real key out of the cache
   * fails while the database is away).
   */
  readonly #unknown = new Map<string, Entry>();
  readonly #firstLookups = new Map<string, Promise<KeyLookup>>();
  readonly #options: KeyCacheOptions;
  readonly #now: () => number;

  constructor(options: KeyCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The lookup of the key whose secret hashes to `digest`: from the cache while fresh, else from `find`. */
  lookup(digest: string, find: () => Promise<KeyLookup>): KeyLookup | Promise<KeyLookup> {
    const entry = this.#entries.get(digest) ?? this.#unknown.get(digest);
    if (entry === undefined) {
      // A key not seen yet: one lookup however many requests bring it at once.
      let first = this.#firstLookups.get(digest);
      if (first === undefined) {
        first = this.#refresh(digest, find, undefined).finally(() => this.#firstLookups.delete(digest));
        this.#firstLookups.set(digest, first);
      }
      return first;
    }
    const now = this.#now();
    const age = now - entry.fetchedAt;
    if (age < this.#options.ttlMs) {
      // A key in use is looked up again in the background before its entry is old, so that the
      // request past the TTL finds it fresh (or the lookup sent long enough ago not to wait for it).
      if (age >= this.#options.ttlMs * REFRESH_AHEAD && entry.refreshing === undefined) this.#sendRefresh(digest, find, entry, now);
      return entry.lookup;
    }
    // Past its TTL: one lookup refreshes it (however many requests wait), and requests wait for it
    // until `refreshWaitMs` after it was sent; a database slower than that gets the cached answer
    // instead, within `staleMs`. The wait is the refresh's, not each request's: while a stalled
    // database holds the refresh, the requests after the first wait are answered at once, not
    // each held for `refreshWaitMs` in turn.
    const refreshing = entry.refreshing ?? this.#sendRefresh(digest, find, entry, now);
    const usable = age < this.#options.staleMs || !entry.lookup.ok;
    if (!usable) return refreshing;
    const waitLeft = (this.#options.refreshWaitMs ?? 250) - (now - (entry.refreshSentAt ?? now));
    return waitLeft > 0 ? within(refreshing, waitLeft, entry.lookup) : entry.lookup;
  }

  /** Sends the lookup that refreshes `entry`, kept on it so that requests past the TTL wait for this one. */
  #sendRefresh(digest: string, find: () => Promise<KeyLookup>, entry: Entry, now: number): Promise<KeyLookup> {
    const refreshing = this.#refresh(digest, find, entry);
    refreshing.catch(() => undefined);
    entry.refreshing = refreshing;
    entry.refreshSentAt = now;
    return refreshing;
  }

  async #refresh(digest: string, find: () => Promise<KeyLookup>, previous: Entry | undefined): Promise<KeyLookup> {
    let lookup: KeyLookup;
    try {
      lookup = await find();
    } catch (error) {
      if (previous !== undefined) previous.refreshing = undefined;
      const usable = previous?.lookup.ok === true && this.#now() - previous.fetchedAt < this.#options.staleMs;
      if (usable) return previous.lookup;
      throw error;
    }
    this.#store(digest, { lookup, fetchedAt: this.#now() });
    return lookup;
  }

  #store(digest: string, entry: Entry): void {
    const unknown = !entry.lookup.ok && entry.lookup.reason === 'unknown';
    const entries = unknown ? this.#unknown : this.#entries;
    (unknown ? this.#entries : this.#unknown).delete(digest);
    // Re-inserted so the Map's order stays oldest-first for eviction.
    entries.delete(digest);
    entries.set(digest, entry);
    if (entries.size > this.#options.maxEntries) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
  }

  /** Forgets every answer about the key `publicId` (revoked or its owner disabled or enabled, here or on another instance). */
  forget(publicId: string): void {
    for (const [digest, entry] of this.#entries) {
      const about = entry.lookup.ok ? entry.lookup.key.publicId : 'publicId' in entry.lookup ? entry.lookup.publicId : undefined;
      if (about === publicId) this.#entries.delete(digest);
    }
  }

  /** Answers held for keys that exist (or existed: revoked, expired). */
  get size(): number {
    return this.#entries.size;
  }
}

/** `refreshing`'s answer if it comes within `waitMs`, else (or if it fails) `cached`. */
function within(refreshing: Promise<KeyLookup>, waitMs: number, cached: KeyLookup): Promise<KeyLookup> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs, cached);
    refreshing.then(
      (lookup) => {
        clearTimeout(timer);
        resolve(lookup);
      },
      () => {
        clearTimeout(timer);
        resolve(cached);
      },
    );
  });
}
