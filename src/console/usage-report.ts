import { sql } from 'kysely';
import { readsOf } from '../storage/reads-of.js';
import type { StorageDb } from '../storage/schema.js';
import { lastOfRequest } from '../usage/usage-queries.js';

/** One key's use of one model on one UTC day. */
export interface UsageReportRow {
  /** `2026-11-27` */
  day: string;
  /** The key's public id; null for requests with a key from the gateway's options. */
  keyId: string | null;
  model: string | null;
  /** Requests, each counted once, under the model of its last attempt (the one that answered, when a fallback did). */
  requests: number;
  /** Upstream attempts: a retried or fallen-back request makes several. */
  attempts: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  /** Nano-USD of the priced rows. */
  costNanoUsd: number;
  /** Rows that delivered something without a price: their cost is unknown, not 0. */
  unpriced: number;
  /** Requests that failed (nothing delivered), as `switchyard usage` counts them: an attempt that failed before another answered is not one. */
  errors: number;
  /** Rows answered 429: the provider's rate limit met by an attempt, or the gateway's own limits and budgets (a row of attempt 0). */
  rateLimited: number;
}

export interface UsageReportQuery {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** Only the keys this console user owns; every row when absent (an admin). */
  ownerId?: string;
}

const DAY_MS = 86_400_000;

/** Usage per UTC day, key and model, newest day first. */
export async function usageReport(db: StorageDb, query: UsageReportQuery): Promise<UsageReportRow[]> {
  let select = readsOf(db)
    .selectFrom('usage_ledger')
    .select([
      sql<number | string>`at / ${sql.lit(DAY_MS)}`.as('day'),
      'key_public_id',
      'model',
      sql<number | string>`sum(case when ${lastOfRequest} then 1 else 0 end)`.as('requests'),
      sql<number | string>`sum(case when attempt > 0 then 1 else 0 end)`.as('attempts'),
      sql<number | string | null>`sum(input_tokens)`.as('input_tokens'),
      sql<number | string | null>`sum(cached_input_tokens)`.as('cached_input_tokens'),
      sql<number | string | null>`sum(output_tokens)`.as('output_tokens'),
      sql<number | string | null>`sum(cost_nano_usd)`.as('cost'),
      sql<number | string>`sum(case when cost_nano_usd is null and billing <> 'failed' then 1 else 0 end)`.as('unpriced'),
      sql<number | string>`sum(case when billing = 'failed' and ${lastOfRequest} then 1 else 0 end)`.as('errors'),
      sql<number | string>`sum(case when status = 429 then 1 else 0 end)`.as('rate_limited'),
    ])
    .where('at', '>=', query.from)
    .where('at', '<', query.to)
    .groupBy([sql`1`, 'key_public_id', 'model'])
    .orderBy(sql`1`, 'desc')
    .orderBy('key_public_id')
    .orderBy('model');
  if (query.ownerId !== undefined) {
    const ownerId = query.ownerId;
    select = select.where('key_public_id', 'in', (eb) =>
      eb.selectFrom('console_key_owners').select('key_public_id').where('user_id', '=', ownerId),
    );
  }
  const rows = await select.execute();
  return rows.map((row) => ({
    day: new Date(Number(row.day) * DAY_MS).toISOString().slice(0, 10),
    keyId: row.key_public_id,
    model: row.model,
    requests: Number(row.requests),
    attempts: Number(row.attempts),
    inputTokens: Number(row.input_tokens ?? 0),
    cachedInputTokens: Number(row.cached_input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    costNanoUsd: Number(row.cost ?? 0),
    unpriced: Number(row.unpriced),
    errors: Number(row.errors),
    rateLimited: Number(row.rate_limited),
  }));
}

/** What each key has spent in all, in nano-USD (priced rows). */
export async function spendByKey(db: StorageDb): Promise<Map<string, KeySpend>> {
  const rows = await readsOf(db)
    .selectFrom('usage_ledger')
    .select([
      'key_public_id',
      sql<number | string | null>`sum(cost_nano_usd)`.as('cost'),
      sql<number | string>`sum(case when cost_nano_usd is null and billing <> 'failed' then 1 else 0 end)`.as('unpriced'),
    ])
    .where('key_public_id', 'is not', null)
    .groupBy('key_public_id')
    .execute();
  return new Map(rows.map((row) => [row.key_public_id ?? '', { nanoUsd: Number(row.cost ?? 0), unpriced: Number(row.unpriced) }]));
}

/** What a key spent: the priced requests' cost, and how many requests had no price (never counted as free). */
export interface KeySpend {
  nanoUsd: number;
  unpriced: number;
}
