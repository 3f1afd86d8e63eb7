import type { KeyLookup } from './stored-keys.js';

export interface KeyCacheOptions {
  /** How long a lookup is trusted: a key revoked on another instance is refused at most this late (without Redis). */
  ttlMs: number;
  /** How long a good key keeps working from the cache while the database cannot be reached. */
  staleMs: number;
  /** Entries kept at most; the oldest goes first. */
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  lookup: KeyLookup;
  fetchedAt: number;
  /** The lookup of this key already under way, so that a burst of requests makes one query. */
  refreshing?: Promise<KeyLookup>;
}

/**
 * Stored-key lookups, cached in process so that the request path does not wait for the database:
 * a cached answer is returned synchronously, and refreshed in the background once older than the
 * TTL. Entries are keyed by the hash of the key's secret, never the key itself. While lookups fail
 * (the database is away) a good key keeps working from its last answer for `staleMs`; after that,
 * and for a key never seen, the request fails.
 */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #firstLookups = new Map<string, Promise<KeyLookup>>();
  readonly #options: KeyCacheOptions;
  readonly #now: () => number;

  constructor(options: KeyCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** The lookup of the key whose secret hashes to `digest`: from the cache while fresh, else from `find`. */
  lookup(digest: string, find: () => Promise<KeyLookup>): KeyLookup | Promise<KeyLookup> {
    const entry = this.#entries.get(digest);
    if (entry === undefined) {
      // A key not seen yet: one lookup however many requests bring it at once.
      let first = this.#firstLookups.get(digest);
      if (first === undefined) {
        first = this.#refresh(digest, find, undefined).finally(() => this.#firstLookups.delete(digest));
        this.#firstLookups.set(digest, first);
      }
      return first;
    }
    if (this.#now() - entry.fetchedAt < this.#options.ttlMs) return entry.lookup;
    // Past its TTL: answered from the cache once more while one lookup refreshes it, so a slow or
    // stalled database never holds a request; the next request after the refresh gets the new answer.
    if (entry.refreshing === undefined) {
      entry.refreshing = this.#refresh(digest, find, entry);
      entry.refreshing.catch(() => undefined);
    }
    return this.#now() - entry.fetchedAt < this.#options.staleMs || !entry.lookup.ok ? entry.lookup : entry.refreshing;
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
    // Re-inserted so the Map's order stays oldest-first for eviction.
    this.#entries.delete(digest);
    this.#entries.set(digest, entry);
    if (this.#entries.size > this.#options.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** Forgets every answer about the key `publicId` (revoked here, or on another instance). */
  forget(publicId: string): void {
    for (const [digest, entry] of this.#entries) {
      if (entry.lookup.ok && entry.lookup.key.publicId === publicId) this.#entries.delete(digest);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
