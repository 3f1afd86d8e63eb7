import type { Redis } from 'ioredis';
import type { CanonicalResponse } from '../../src/index.js';
import type { CacheStore } from './response-cache.js';

/** Entries in this process, at most `maxEntries` (the oldest goes first). */
export function memoryCacheStore(maxEntries = 1000): CacheStore {
  const entries = new Map<string, { response: CanonicalResponse; expiresAt: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt > Date.now()) return entry.response;
      entries.delete(key);
      return undefined;
    },
    async set(key, response, ttlSeconds) {
      entries.delete(key);
      entries.set(key, { response, expiresAt: Date.now() + ttlSeconds * 1000 });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
  };
}

/** Entries in Redis, shared by every instance; expired by Redis itself. */
export function redisCacheStore(redis: Redis, prefix = 'response-cache:'): CacheStore {
  return {
    async get(key) {
      const text = await redis.get(prefix + key);
      return text === null ? undefined : (JSON.parse(text) as CanonicalResponse);
    },
    async set(key, response, ttlSeconds) {
      await redis.set(prefix + key, JSON.stringify(response), 'EX', ttlSeconds);
    },
  };
}
