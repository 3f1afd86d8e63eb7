import type { Redis } from 'ioredis';
import type { StorageDb } from '../storage/schema.js';
import type { Logger } from '../logger.js';

/** How one probe went (the gateway's `createModelProbe`). */
export interface ProbeOutcome {
  readonly model: string;
  readonly ok: boolean;
  readonly errorCode?: string;
}

/** What the status page reads from a gateway: its models, its ledger, its Redis and its own call path. */
export interface StatusSource {
  /** The served model ids, in configuration order. */
  readonly models: readonly string[];
  /** The ledger's database once open; undefined without a database (or while it cannot be reached). */
  database(): Promise<StorageDb | undefined>;
  /** When the gateway was made, epoch ms: its uptime counts from there. */
  readonly startedAt: number;
  /** Shared by the instances when configured: the probe's lock lives there. */
  readonly redis: Redis | undefined;
  readonly redisPrefix: string;
  readonly logger: Logger;
  /** The caller id probe rows carry in the ledger (`key_public_id`). */
  readonly probeCaller: string;
  /** One tiny request to `model` through the gateway's call path, recorded in the ledger as caller `probe`. */
  probe(model: string, maxOutputTokens: number, timeoutMs: number): Promise<ProbeOutcome>;
  /** Whether the ledger is kept (a probe's cost is recorded only then). */
  readonly ledger: boolean;
}

const sources = new WeakMap<object, StatusSource>();

/** Called by `gateway()`: what `statusPage(gateway)` will read. */
export function registerStatusSource(gateway: object, source: StatusSource): void {
  sources.set(gateway, source);
}

export function statusSourceOf(gateway: object): StatusSource | undefined {
  return sources.get(gateway);
}
