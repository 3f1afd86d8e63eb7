// An exact-match response cache as a stage: the same request from the same key, while the entry
// lives, is answered from the cache without calling the provider — a streamed request gets the
// cached answer as a stream. The ledger records a hit as answered by this stage, with no upstream
// usage and no cost. In your own project:
//   import type { Stage } from 'switchyard-gateway';
import { createHash } from 'node:crypto';
import type { CanonicalResponse, CanonicalStreamEvent, Stage, StageContext } from '../../src/index.js';
import { assembleResponse } from './assemble-response.js';

/** Where entries live: in this process (`memoryCacheStore`) or shared by every instance (`redisCacheStore`). */
export interface CacheStore {
  get(key: string): Promise<CanonicalResponse | undefined>;
  set(key: string, response: CanonicalResponse, ttlSeconds: number): Promise<void>;
}

export interface ResponseCacheOptions {
  store: CacheStore;
  /** How long an answer is served from the cache. Default 300. */
  ttlSeconds?: number;
}

/** Response header a hit carries, so a caller can tell. */
export const CACHE_HEADER = 'x-cache';

/**
 * The entry's key: the caller's key and the whole request except `stream`, so a streamed and a
 * non-streamed ask share an entry. Per key: one tenant's answers never reach another.
 */
function cacheKey(context: StageContext): string {
  const { stream: _stream, ...request } = context.request;
  const caller = context.caller.keyId ?? '';
  return createHash('sha256')
    .update(JSON.stringify([caller, context.model, request]))
    .digest('hex');
}

const EVENTS = Symbol('response-cache.events');
const KEY = Symbol('response-cache.key');

export function responseCache({ store, ttlSeconds = 300 }: ResponseCacheOptions): Stage {
  return {
    name: 'response-cache',
    // Before admission: a hit spends no rate limit or budget (it costs nothing upstream).
    position: { before: 'admit' },
    async before(context) {
      const key = cacheKey(context);
      const cached = await store.get(key);
      if (cached !== undefined) {
        context.setAnswerHeader(CACHE_HEADER, 'hit');
        return { response: cached };
      }
      context.state.set(KEY, key);
      context.setAnswerHeader(CACHE_HEADER, 'miss');
      return undefined;
    },
    // A streamed answer is kept as it goes out (this stage's own copy), to be stored once it finished.
    watch(context, event) {
      if (context.answeredBy !== undefined) return;
      let events = context.state.get(EVENTS) as CanonicalStreamEvent[] | undefined;
      if (events === undefined) context.state.set(EVENTS, (events = []));
      events.push(event);
    },
    async after(context) {
      const key = context.state.get(KEY) as string | undefined;
      // Only a provider's complete answer is stored: not a hit, a refusal, a failure or a cut stream.
      if (key === undefined || context.status !== 200 || context.errorCode !== undefined) return;
      const response = context.response ?? assembleResponse((context.state.get(EVENTS) as CanonicalStreamEvent[] | undefined) ?? []);
      if (response !== undefined) await store.set(key, response, ttlSeconds);
    },
  };
}
