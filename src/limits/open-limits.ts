import { Redis } from 'ioredis';
import type { AdmissionControl } from './admit-stage.js';
import type { KeyLimits, LimitSet } from './limit-rules.js';
import { withLimits, type LimitStage, type LimitStageOptions } from './limit-stage.js';
import { MemoryLimitStore } from './limit-store.js';
import { RedisLimitStore } from './redis-limit-store.js';

/** The `limits` option: who is held to what, and how the store behaves. */
export interface LimitsOptions {
  /** Every key's limits (stored keys; the keys from the options share one set). */
  perKey?: KeyLimits;
  /** Overrides for one key, by its public id or name. */
  keys?: Record<string, KeyLimits>;
  /** With Redis: when it cannot be reached, admit without limits (`'open'`, default) or refuse with 503 (`'closed'`). */
  whenStoreDown?: 'open' | 'closed';
  /** How long a concurrency slot outlives an instance that died holding it, in ms. Default 60 000. */
  leaseMs?: number;
  /** How long a Redis call may take before it counts as down, in ms. Default 1 000. */
  storeTimeoutMs?: number;
  /**
   * With Redis: how long the slots and tokens of requests that ended may wait for the next call
   * admitting requests, to go with it instead of alone, in ms (0 to 1 000). Default 10. Longer
   * saves calls at low load; other instances see a slot taken that much longer, and a shutdown
   * waits that much longer for the last slots to go back.
   */
  givebackWaitMs?: number;
}

export interface OpenLimitsOptions {
  limits: LimitsOptions | undefined;
  /** Per-model limits, from `models[].limits`. */
  models: Record<string, LimitSet>;
  /** A client to share (its owner closes it), a URL to open one for the limits alone, or none (limits in memory). */
  redis: Redis | string | undefined;
  redisPrefix: string;
  estimateTokens: LimitStageOptions['estimateTokens'];
  /** Stored keys may carry limits of their own: the stage is on even without configured limits. */
  storedKeys: boolean;
  onStoreError: (error: unknown) => void;
}

export interface OpenedLimits {
  readonly stage: LimitStage;
  /** The Redis client the limits count in, when they count in Redis (readiness probes ping it). */
  readonly redis: Redis | undefined;
  close(): Promise<void>;
}

/** The limits stage around `inner`, counting in Redis when there is one (every instance shares it), else in memory; undefined when nothing can be limited. */
export function openLimits(inner: AdmissionControl, settings: OpenLimitsOptions): OpenedLimits | undefined {
  const { limits = {}, models } = settings;
  const anyLimit = limits.perKey !== undefined || Object.keys(limits.keys ?? {}).length > 0 || Object.keys(models).length > 0;
  if (!anyLimit && !settings.storedKeys) return undefined;
  const owned = typeof settings.redis === 'string' ? new Redis(settings.redis) : undefined;
  owned?.on('error', settings.onStoreError);
  const redis = owned ?? (settings.redis as Redis | undefined);
  const store =
    redis === undefined
      ? new MemoryLimitStore()
      : new RedisLimitStore(redis, settings.redisPrefix, { timeoutMs: limits.storeTimeoutMs, givebackWaitMs: limits.givebackWaitMs });
  const stage = withLimits(inner, {
    rules: {
      ...(limits.perKey === undefined ? {} : { perKey: limits.perKey }),
      ...(limits.keys === undefined ? {} : { keys: limits.keys }),
      models,
    },
    store,
    estimateTokens: settings.estimateTokens,
    ...(limits.leaseMs === undefined ? {} : { leaseMs: limits.leaseMs }),
    ...(limits.whenStoreDown === undefined ? {} : { whenStoreDown: limits.whenStoreDown }),
    onStoreError: settings.onStoreError,
  });
  return {
    stage,
    redis,
    async close() {
      // The leases of the requests that just ended go back before the connection does: else other
      // instances would see those slots taken until the leases expire.
      await stage.settled();
      owned?.disconnect();
    },
  };
}
