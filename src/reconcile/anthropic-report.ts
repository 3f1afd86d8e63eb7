import { countOf, dailyReportUrl, fetchReportPages, type ReportWindow, textOf } from './fetch-report-pages.js';
import { dayOf, type ProviderReport, type ReportCost, type ReportRange, type ReportSource, type ReportUsage } from './provider-report.js';

/** How the report names its time window. */
const window: ReportWindow = { start: 'starting_at', end: 'ending_at', moment: (at) => new Date(at).toISOString() };
const ANTHROPIC_VERSION = '2023-06-01';

interface AnthropicBucket {
  starting_at?: unknown;
  results?: unknown;
}

const resultsOf = (bucket: AnthropicBucket): Record<string, unknown>[] =>
  Array.isArray(bucket.results)
    ? bucket.results.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];

const dayOfBucket = (bucket: AnthropicBucket): string | undefined => {
  const at = typeof bucket.starting_at === 'string' ? Date.parse(bucket.starting_at) : Number.NaN;
  return Number.isNaN(at) ? undefined : dayOf(at);
};

/**
 * Anthropic's Usage and Cost Admin API: the Messages usage report
 * (`GET /v1/organizations/usage_report/messages`, per day, model and API key) and the cost report
 * (`GET /v1/organizations/cost_report`, per day and, grouped by description, model; token costs
 * only), read with an admin key as `x-api-key`.
 */
export async function readAnthropicReport(source: ReportSource, range: ReportRange): Promise<ProviderReport> {
  const base = source.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const headers = { 'x-api-key': source.adminKey, 'anthropic-version': ANTHROPIC_VERSION, accept: 'application/json' };
  const query = (path: string, groupBy: string[], page: string | undefined) => dailyReportUrl(base, path, range, window, groupBy, page);
  const usageBuckets = (await fetchReportPages(
    "Anthropic's usage report",
    (page) => query('/v1/organizations/usage_report/messages', ['model', 'api_key_id'], page),
    headers,
  )) as AnthropicBucket[];
  const costBuckets = (await fetchReportPages(
    "Anthropic's cost report",
    (page) => query('/v1/organizations/cost_report', ['description'], page),
    headers,
  )) as AnthropicBucket[];

  const usage: ReportUsage[] = [];
  for (const bucket of usageBuckets) {
    const day = dayOfBucket(bucket);
    if (day === undefined) continue;
    for (const result of resultsOf(bucket)) {
      const creation = (result.cache_creation ?? {}) as Record<string, unknown>;
      usage.push({
        day,
        model: textOf(result.model) ?? '(no model)',
        apiKeyId: textOf(result.api_key_id),
        uncachedInputTokens: countOf(result.uncached_input_tokens),
        cachedInputTokens: countOf(result.cache_read_input_tokens),
        cacheWriteTokens: countOf(creation.ephemeral_5m_input_tokens) + countOf(creation.ephemeral_1h_input_tokens),
        outputTokens: countOf(result.output_tokens),
        requests: undefined,
      });
    }
  }
  const costs: ReportCost[] = [];
  for (const bucket of costBuckets) {
    const day = dayOfBucket(bucket);
    if (day === undefined) continue;
    for (const result of resultsOf(bucket)) {
      // Web search, code execution and the like are not tokens: the ledger prices tokens only.
      if (result.cost_type !== undefined && result.cost_type !== null && result.cost_type !== 'tokens') continue;
      if (typeof result.currency === 'string' && result.currency.toUpperCase() !== 'USD') continue;
      // The amount is in cents, as a decimal string ("123.45" is $1.23); a cent is 1e7 nano-USD.
      const cents = typeof result.amount === 'string' ? Number(result.amount) : Number.NaN;
      if (!Number.isFinite(cents)) continue;
      costs.push({ day, model: textOf(result.model) ?? undefined, apiKeyId: null, nanoUsd: Math.round(cents * 1e7) });
    }
  }
  return { usage, costs, costGrain: { byModel: true, byKey: false } };
}
