import { sql } from 'kysely';
import type { StorageDb } from '../storage/schema.js';

const HOUR_MS = 3_600_000;

/** When a key's spend in the last hour is abnormal: `factor` times its trailing hourly average, and at least `floorNanoUsd`. */
export interface AbnormalSpendRule {
  factor: number;
  floorNanoUsd: number;
  /** How many hours before the last one make the average. */
  trailingHours: number;
}

/** 5× the trailing day's hourly average, and over $1. */
export const DEFAULT_ABNORMAL_SPEND: AbnormalSpendRule = { factor: 5, floorNanoUsd: 1e9, trailingHours: 24 };

export interface AbnormalSpend {
  keyId: string;
  lastHourNanoUsd: number;
  /** The key's average spend per hour over the trailing hours. */
  hourlyAverageNanoUsd: number;
}

/**
 * Keys whose spend in the hour before `now` jumped against their own trailing hourly average (a
 * key with no history counts from 0: over the floor, it is flagged). One aggregate over the
 * ledger's (key, at, cost) index.
 */
export async function findAbnormalSpend(
  db: StorageDb,
  now = Date.now(),
  rule: AbnormalSpendRule = DEFAULT_ABNORMAL_SPEND,
  keyIds?: readonly string[],
): Promise<AbnormalSpend[]> {
  if (keyIds !== undefined && keyIds.length === 0) return [];
  const hourStart = now - HOUR_MS;
  const since = hourStart - rule.trailingHours * HOUR_MS;
  const rows = await db
    .selectFrom('usage_ledger')
    .select([
      'key_public_id',
      sql<number | string | null>`sum(case when at >= ${hourStart} then cost_nano_usd else 0 end)`.as('last_hour'),
      sql<number | string | null>`sum(case when at < ${hourStart} then cost_nano_usd else 0 end)`.as('trailing'),
    ])
    .where('key_public_id', 'is not', null)
    // Named keys are read through the (key, at, cost) index's prefix; all keys scan the day's rows.
    .$if(keyIds !== undefined, (query) => query.where('key_public_id', 'in', keyIds ?? []))
    .where('at', '>=', since)
    .where('at', '<', now)
    .groupBy('key_public_id')
    .execute();
  return rows
    .map((row) => ({
      keyId: row.key_public_id ?? '',
      lastHourNanoUsd: Number(row.last_hour ?? 0),
      hourlyAverageNanoUsd: Number(row.trailing ?? 0) / rule.trailingHours,
    }))
    .filter((spend) => spend.lastHourNanoUsd >= rule.floorNanoUsd && spend.lastHourNanoUsd >= rule.factor * spend.hourlyAverageNanoUsd);
}

export interface RecentRequest {
  at: number;
  requestId: string;
  model: string | null;
  status: number;
  inputTokens: number | null;
  outputTokens: number | null;
  costNanoUsd: number | null;
}

/** The key's last `limit` upstream attempts, newest first: what an unusual spend came from. */
export async function recentRequestsOf(db: StorageDb, keyId: string, limit = 20): Promise<RecentRequest[]> {
  const rows = await db
    .selectFrom('usage_ledger')
    .select(['at', 'request_id', 'model', 'status', 'input_tokens', 'output_tokens', 'cost_nano_usd'])
    .where('key_public_id', '=', keyId)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    at: Number(row.at),
    requestId: row.request_id,
    model: row.model,
    status: row.status,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    costNanoUsd: row.cost_nano_usd === null ? null : Number(row.cost_nano_usd),
  }));
}
