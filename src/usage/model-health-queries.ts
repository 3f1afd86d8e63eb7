import { sql } from 'kysely';
import type { StorageDb } from '../storage/schema.js';

/**
 * How the status page reads the ledger: each row is an answer that succeeded, was rate-limited
 * (429), failed on the upstream's side (5xx, or a stream that broke after it began), or is the
 * caller's own doing (another 4xx, a client that left) — which says nothing of the model's health.
 */
const okRow = sql<boolean>`(status < 400 and error_code is null and billing = 'complete')`;
const limitedRow = sql<boolean>`(status = 429)`;
const failedRow = sql<boolean>`(status >= 500 or (status < 400 and error_code is not null))`;
/** Time spent producing output: after the first token for a stream, the whole call otherwise. */
const generationMs = sql<number>`(latency_ms - coalesce(first_token_ms, 0))`;

/** One model's rows in one time bucket. */
export interface HealthBucket {
  model: string;
  /** 0: the newest bucket (from `boundaries[0]`), 1: the next, … */
  bucket: number;
  requests: number;
  ok: number;
  rateLimited: number;
  failed: number;
  /** Rows of the gateway's own probe (caller `probeCaller`). */
  probes: number;
  /** Output tokens of successful answers that reported them, and the time spent producing them. */
  outputTokens: number;
  generationMs: number;
  lastAt: number | undefined;
  lastFailureAt: number | undefined;
  lastProbeAt: number | undefined;
}

const num = (value: unknown): number => Number(value ?? 0);
const numOrUndefined = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

/**
 * Totals per model and time bucket since `boundaries[last]`: bucket 0 is `at >= boundaries[0]`,
 * bucket 1 `boundaries[1] <= at < boundaries[0]`, and so on (boundaries newest first), so windows
 * that contain each other are sums of buckets and each row is read once. One query per bucket,
 * grouped by model alone: each model's rows are a range of the (model, at, …) index, read in the
 * index's order and straight from it, with nothing to sort.
 */
export async function queryHealthBuckets(
  db: StorageDb,
  models: readonly string[],
  boundaries: readonly number[],
  probeCaller: string,
): Promise<HealthBucket[]> {
  if (models.length === 0) return [];
  const when = (condition: unknown, value: unknown) => sql`sum(case when ${condition} then ${value} else 0 end)`;
  const producing = sql`${okRow} and output_tokens > 0 and ${generationMs} > 0`;
  const perBucket = await Promise.all(
    boundaries.map(async (from, bucket) => {
      const until = bucket === 0 ? undefined : boundaries[bucket - 1];
      let select = db
        .selectFrom('usage_ledger')
        .select([
          'model',
          sql<string | number>`count(*)`.as('requests'),
          when(okRow, sql.lit(1)).as('ok'),
          when(limitedRow, sql.lit(1)).as('limited'),
          when(failedRow, sql.lit(1)).as('failed'),
          when(sql`key_public_id = ${probeCaller}`, sql.lit(1)).as('probes'),
          when(producing, sql`output_tokens`).as('output_tokens'),
          when(producing, generationMs).as('generation_ms'),
          sql`max(at)`.as('last_at'),
          sql`max(case when ${limitedRow} or ${failedRow} then at end)`.as('last_failure_at'),
          sql`max(case when key_public_id = ${probeCaller} then at end)`.as('last_probe_at'),
        ])
        .where('model', 'in', [...models])
        .where('at', '>=', from)
        .groupBy('model');
      if (until !== undefined) select = select.where('at', '<', until);
      return (await select.execute()).map((row) => ({ ...row, bucket }));
    }),
  );
  const rows = perBucket.flat();
  return rows.map((row) => ({
    model: row.model ?? '',
    bucket: num(row.bucket),
    requests: num(row.requests),
    ok: num(row.ok),
    rateLimited: num(row.limited),
    failed: num(row.failed),
    probes: num(row.probes),
    outputTokens: num(row.output_tokens),
    generationMs: num(row.generation_ms),
    lastAt: numOrUndefined(row.last_at),
    lastFailureAt: numOrUndefined(row.last_failure_at),
    lastProbeAt: numOrUndefined(row.last_probe_at),
  }));
}

/** One successful answer's time to its first token. */
export interface FirstTokenSample {
  at: number;
  firstTokenMs: number;
}

/**
 * Times to first token of a model's most recent successful streams since `since`, newest first, at
 * most `limit` (a bounded sample: percentiles are computed from it in JavaScript, the same on
 * SQLite, which has no percentile function, and on PostgreSQL). Walks the (model, at) index backwards.
 */
export async function queryFirstTokenSample(db: StorageDb, model: string, since: number, limit: number): Promise<FirstTokenSample[]> {
  const rows = await db
    .selectFrom('usage_ledger')
    .select(['at', 'first_token_ms'])
    .where('model', '=', model)
    .where('at', '>=', since)
    .where('first_token_ms', 'is not', null)
    .where(okRow)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ at: Number(row.at), firstTokenMs: Number(row.first_token_ms) }));
}

/** What a failed (or rate-limited) row says: its error code and HTTP status. */
export interface FailureRow {
  at: number;
  status: number;
  errorCode: string | null;
}

/** The failure a model had at `at` (found by `queryHealthBuckets`' `lastFailureAt`). */
export async function queryFailureAt(db: StorageDb, model: string, at: number): Promise<FailureRow | undefined> {
  const row = await db
    .selectFrom('usage_ledger')
    .select(['at', 'status', 'error_code'])
    .where('model', '=', model)
    .where('at', '=', at)
    // Parenthesized: a bare `or` would take in every failure of every model.
    .where(sql<boolean>`(${limitedRow} or ${failedRow})`)
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? undefined : { at: Number(row.at), status: row.status, errorCode: row.error_code };
}

/** The models (of `models`) with any row since `since`. */
export async function queryModelsActiveSince(db: StorageDb, models: readonly string[], since: number): Promise<Set<string>> {
  if (models.length === 0) return new Set();
  const rows = await db
    .selectFrom('usage_ledger')
    .select('model')
    .distinct()
    .where('model', 'in', [...models])
    .where('at', '>=', since)
    .execute();
  return new Set(rows.map((row) => row.model ?? ''));
}
