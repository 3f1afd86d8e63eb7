import { sql } from 'kysely';
import type { StorageDb } from '../storage/schema.js';

export type UsageGrouping = 'key' | 'model' | 'day';

export interface UsageQuery {
  groupBy: UsageGrouping;
  /** Epoch milliseconds, inclusive. */
  from?: number;
  /** Epoch milliseconds, exclusive. */
  to?: number;
  /** Only this key's rows (its public id). */
  keyId?: string;
  /** Only this model's rows. */
  model?: string;
}

/**
 * Usage of one key, model or UTC day. Token sums count only rows that reported them. A request is
 * counted once, by its last attempt (the model that answered, when a fallback did); its attempts
 * are counted apart.
 */
export interface UsageTotals {
  /** The key's public id (`null`: requests with a key from the options), the model id, or the day (`2026-11-26`). */
  group: string | null;
  /** Requests (one per request id), refusals (429s before any provider was called) included. */
  requests: number;
  /** Upstream attempts: a retried or fallen-back request makes several. */
  attempts: number;
  /** Requests that failed (nothing delivered); an attempt that failed before another answered is not one. */
  errors: number;
  /** Requests whose stream was cut short. */
  partial: number;
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Cost of the priced rows, in nano-USD (1e-9 USD). */
  costNanoUsd: number;
  /** Rows that delivered something but have no price: their cost is unknown, not 0. */
  unpriced: number;
}

const DAY_MS = 86_400_000;

/** Whether a row is its request's last: the one that says how the request ended (read from the ledger's key). */
export const lastOfRequest = sql<boolean>`not exists (select 1 from usage_ledger later where later.request_id = usage_ledger.request_id and later.attempt > usage_ledger.attempt)`;

/** Usage totals per key, model or UTC day, most recent day first, otherwise by most requests. */
export async function queryUsage(db: StorageDb, query: UsageQuery): Promise<UsageTotals[]> {
  const group =
    query.groupBy === 'key'
      ? sql<string | number | null>`key_public_id`
      : query.groupBy === 'model'
        ? sql<string | number | null>`model`
        : sql<string | number | null>`at / ${sql.lit(DAY_MS)}`;
  let select = db
    .selectFrom('usage_ledger')
    .select([
      group.as('grp'),
      sql<number | string>`sum(case when ${lastOfRequest} then 1 else 0 end)`.as('requests'),
      sql<number | string>`sum(case when attempt > 0 then 1 else 0 end)`.as('attempts'),
      sql<number | string>`sum(case when billing = 'failed' and ${lastOfRequest} then 1 else 0 end)`.as('errors'),
      sql<number | string>`sum(case when billing = 'partial' then 1 else 0 end)`.as('partial'),
      sql<number | string | null>`sum(input_tokens)`.as('input_tokens'),
      sql<number | string | null>`sum(cached_input_tokens)`.as('cached_input_tokens'),
      sql<number | string | null>`sum(cache_write_tokens)`.as('cache_write_tokens'),
      sql<number | string | null>`sum(output_tokens)`.as('output_tokens'),
      sql<number | string | null>`sum(reasoning_tokens)`.as('reasoning_tokens'),
      sql<number | string | null>`sum(cost_nano_usd)`.as('cost'),
      sql<number | string>`sum(case when cost_nano_usd is null and billing <> 'failed' then 1 else 0 end)`.as('unpriced'),
    ])
    .groupBy(sql`1`);
  if (query.from !== undefined) select = select.where('at', '>=', query.from);
  if (query.to !== undefined) select = select.where('at', '<', query.to);
  if (query.keyId !== undefined) select = select.where('key_public_id', '=', query.keyId);
  if (query.model !== undefined) select = select.where('model', '=', query.model);
  select = query.groupBy === 'day' ? select.orderBy(sql`1`, 'desc') : select.orderBy(sql`2`, 'desc').orderBy(sql`1`);
  const rows = await select.execute();
  return rows.map((row) => ({
    group: query.groupBy === 'day' ? new Date(Number(row.grp) * DAY_MS).toISOString().slice(0, 10) : (row.grp as string | null),
    requests: Number(row.requests),
    attempts: Number(row.attempts),
    errors: Number(row.errors),
    partial: Number(row.partial),
    inputTokens: Number(row.input_tokens ?? 0),
    cachedInputTokens: Number(row.cached_input_tokens ?? 0),
    cacheWriteTokens: Number(row.cache_write_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    reasoningTokens: Number(row.reasoning_tokens ?? 0),
    costNanoUsd: Number(row.cost ?? 0),
    unpriced: Number(row.unpriced),
  }));
}

/** What a key has spent since `since` (epoch ms), in nano-USD: the sum of its priced rows. */
export async function spentSince(db: StorageDb, keyId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('usage_ledger')
    .select(sql<number | string | null>`sum(cost_nano_usd)`.as('spent'))
    .where('key_public_id', '=', keyId)
    .where('at', '>=', since)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** What a browser token has spent, in nano-USD. */
export async function spentByToken(db: StorageDb, tokenId: string): Promise<number> {
  const row = await db
    .selectFrom('usage_ledger')
    .select(sql<number | string | null>`sum(cost_nano_usd)`.as('spent'))
    .where('token_id', '=', tokenId)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}
