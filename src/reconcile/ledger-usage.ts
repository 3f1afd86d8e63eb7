import { sql } from 'kysely';
import { readsOf } from '../storage/reads-of.js';
import type { StorageDb } from '../storage/schema.js';
import { lastOfRequest } from '../usage/usage-queries.js';
import { DAY_MS, dayOf, dayStart, type ReportRange } from './provider-report.js';

/**
 * The ledger's use of one upstream model through one configured provider on one UTC day, in the
 * token kinds a provider bills, and the facts that explain a difference.
 */
export interface LedgerUsage {
  day: string;
  /** The model the provider was asked for (`upstream_model`; the gateway's model id when it has none). */
  model: string;
  /** The configured provider (`providers.<name>`). */
  provider: string;
  /** Input tokens neither read from nor written to the cache (the ledger's `input_tokens` holds both). */
  uncachedInputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Output tokens, reasoning included (as the ledger keeps them). */
  outputTokens: number;
  /** Nano-USD of the priced rows. */
  costNanoUsd: number;
  /** Requests whose last attempt went here. */
  requests: number;
  /** Upstream attempts. */
  attempts: number;
  /** Attempts that failed with nothing delivered: the provider may still have counted (and billed) some. */
  failedAttempts: number;
  /** Streams cut short: their counts are estimates, or unknown. */
  cutStreams: number;
  /** Rows whose counts the gateway estimated rather than the provider reported. */
  estimatedRows: number;
  /** Rows that delivered something without a price: their cost is unknown, not 0. */
  unpricedRows: number;
  /** Rows that delivered something with no token counts at all. */
  uncountedRows: number;
}

/** The ledger per UTC day, upstream model and configured provider, for the given providers and days. */
export async function queryLedgerUsage(db: StorageDb, providers: readonly string[], range: ReportRange): Promise<LedgerUsage[]> {
  if (providers.length === 0) return [];
  const model = sql<string | null>`coalesce(upstream_model, model)`;
  const rows = await readsOf(db)
    .selectFrom('usage_ledger')
    .select([
      sql<number | string>`at / ${sql.lit(DAY_MS)}`.as('day'),
      model.as('upstream'),
      'provider',
      sql<number | string | null>`sum(input_tokens - coalesce(cached_input_tokens, 0) - coalesce(cache_write_tokens, 0))`.as('uncached'),
      sql<number | string | null>`sum(cached_input_tokens)`.as('cached'),
      sql<number | string | null>`sum(cache_write_tokens)`.as('written'),
      sql<number | string | null>`sum(output_tokens)`.as('output'),
      sql<number | string | null>`sum(cost_nano_usd)`.as('cost'),
      sql<number | string>`sum(case when ${lastOfRequest} then 1 else 0 end)`.as('requests'),
      sql<number | string>`sum(case when attempt > 0 then 1 else 0 end)`.as('attempts'),
      sql<number | string>`sum(case when billing = 'failed' and attempt > 0 then 1 else 0 end)`.as('failed_attempts'),
      sql<number | string>`sum(case when billing = 'partial' then 1 else 0 end)`.as('cut'),
      sql<number | string>`sum(case when usage_source = 'estimated' then 1 else 0 end)`.as('estimated'),
      sql<number | string>`sum(case when cost_nano_usd is null and billing <> 'failed' then 1 else 0 end)`.as('unpriced'),
      sql<number | string>`sum(case when billing <> 'failed' and input_tokens is null and output_tokens is null then 1 else 0 end)`.as(
        'uncounted',
      ),
    ])
    .where('provider', 'in', [...providers])
    .where('at', '>=', dayStart(range.from))
    .where('at', '<', dayStart(range.to) + DAY_MS)
    .groupBy([sql`1`, sql`2`, 'provider'])
    .orderBy(sql`1`)
    .orderBy(sql`2`)
    .execute();
  return rows.map((row) => ({
    day: dayOf(Number(row.day) * DAY_MS),
    model: row.upstream ?? '(no model)',
    provider: row.provider ?? '',
    uncachedInputTokens: Number(row.uncached ?? 0),
    cachedInputTokens: Number(row.cached ?? 0),
    cacheWriteTokens: Number(row.written ?? 0),
    outputTokens: Number(row.output ?? 0),
    costNanoUsd: Number(row.cost ?? 0),
    requests: Number(row.requests),
    attempts: Number(row.attempts),
    failedAttempts: Number(row.failed_attempts),
    cutStreams: Number(row.cut),
    estimatedRows: Number(row.estimated),
    unpricedRows: Number(row.unpriced),
    uncountedRows: Number(row.uncounted),
  }));
}
