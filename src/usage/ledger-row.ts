import type { UpstreamAttempt, Usage } from '../canonical/index.js';
import type { UsageLedgerRow } from '../storage/schema.js';
import type { RequestRecord } from './record-stage.js';

/** How a row is billed: the answer in full, a stream cut short, or nothing delivered. */
export type BillingStatus = 'complete' | 'partial' | 'failed';

/** The price of a row, from the catalog's cost function; absent when a price is unknown (the row is unpriced, never free). */
export interface RowCost {
  nanoUsd: number;
  priceVersion: string;
}

export function billingStatusOf(record: RequestRecord): BillingStatus {
  if (record.cut !== undefined) return 'partial';
  return record.status < 400 && record.errorCode === undefined ? 'complete' : 'failed';
}

/** Keeps a count only when it is a real count: anything else is unknown (NULL), never 0. */
const count = (value: number | undefined): number | null =>
  value !== undefined && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/** The ledger row of one upstream attempt. */
export function ledgerRowOf(
  record: RequestRecord,
  attempt: number,
  usage: Usage | undefined,
  usageEstimated: boolean,
  cost: RowCost | undefined,
): UsageLedgerRow {
  return {
    request_id: record.requestId,
    attempt,
    at: record.startedAt,
    key_public_id: record.caller?.keyId ?? null,
    user_agent: record.userAgent?.slice(0, 512) ?? null,
    protocol: record.protocol,
    model: record.model ?? null,
    provider: record.provider ?? null,
    upstream_model: record.upstreamModel ?? null,
    stream: record.stream ? 1 : 0,
    status: record.status,
    error_code: record.errorCode ?? null,
    input_tokens: count(usage?.inputTokens),
    cached_input_tokens: count(usage?.cachedInputTokens),
    cache_write_tokens: count(usage?.cacheWriteTokens),
    cache_write_1h_tokens: count(usage?.cacheWrite1hTokens),
    output_tokens: count(usage?.outputTokens),
    reasoning_tokens: count(usage?.reasoningTokens),
    cost_nano_usd: cost?.nanoUsd ?? null,
    price_version: cost?.priceVersion ?? null,
    latency_ms: record.durationMs,
    first_token_ms: record.firstOutputMs ?? null,
    billing: billingStatusOf(record),
    usage_source: usage === undefined ? null : usageEstimated ? 'estimated' : 'reported',
    token_id: record.caller?.token?.id ?? null,
    deployment: record.deployment ?? null,
  };
}

/**
 * The ledger row of an attempt that failed before another was made: its own deployment, status and
 * error, no usage (unknown, never 0) and billed as failed.
 */
export function failedAttemptRowOf(record: RequestRecord, attempt: number, failed: UpstreamAttempt): UsageLedgerRow {
  const row = ledgerRowOf(record, attempt, undefined, false, undefined);
  return {
    ...row,
    at: failed.startedAt,
    model: failed.model,
    provider: failed.provider,
    upstream_model: failed.upstreamModel,
    deployment: failed.deployment,
    status: failed.error?.status ?? record.status,
    error_code: failed.error?.code ?? null,
    latency_ms: failed.durationMs,
    first_token_ms: null,
    billing: 'failed',
  };
}
