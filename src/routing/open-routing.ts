import { Redis } from 'ioredis';
import { DEFAULT_COOLDOWNS, MemoryCooldownStore, type CooldownOptions, type CooldownStore } from './cooldown.js';
import { RedisCooldownStore } from './redis-cooldown-store.js';
import type { ModelTable } from './resolve-model.js';
import type { RetryOptions } from './retry-policy.js';
import { createRoutingCall, type RoutingCall } from './with-fallback.js';

export interface OpenRoutingOptions {
  models: ModelTable;
  retries: RetryOptions | undefined;
  /** `false`: no cooldowns. */
  cooldowns: CooldownOptions | false | undefined;
  /** A client to share (its owner closes it), a URL to open one for cooldowns alone, or none (cooldowns in this process). */
  redis: Redis | string | undefined;
  redisPrefix: string;
  onStoreError: (error: unknown) => void;
}

export interface OpenedRouting {
  readonly call: RoutingCall;
  /** Waits for the cooldown writes under way, then closes what it opened. */
  close(): Promise<void>;
}

/** The routing "call" stage, its cooldowns in Redis when there is one (every instance agrees), else in this process. */
export function openRouting(settings: OpenRoutingOptions): OpenedRouting {
  const owned = typeof settings.redis === 'string' ? new Redis(settings.redis) : undefined;
  owned?.on('error', settings.onStoreError);
  const redis = owned ?? (settings.redis as Redis | undefined);
  let cooldowns: CooldownStore | undefined;
  if (settings.cooldowns !== false) {
    const resolved = { ...DEFAULT_COOLDOWNS };
    for (const [name, value] of Object.entries(settings.cooldowns ?? {}) as [keyof CooldownOptions, number | undefined][])
      if (value !== undefined) resolved[name] = value;
    cooldowns = redis === undefined ? new MemoryCooldownStore(resolved) : new RedisCooldownStore(redis, settings.redisPrefix, resolved);
  }
  const call = createRoutingCall({ models: settings.models, retries: settings.retries, cooldowns, onStoreError: settings.onStoreError });
  return {
    call,
    async close() {
      await call.settled();
      owned?.disconnect();
    },
  };
}
