import { countOf, dailyReportUrl, fetchReportPages, type ReportWindow, textOf } from './fetch-report-pages.js';
import { dayOf, type ProviderReport, type ReportCost, type ReportRange, type ReportSource, type ReportUsage } from './provider-report.js';

/** How the report names its time window. */
const window: ReportWindow = { start: 'start_time', end: 'end_time', moment: (at) => String(at / 1000) };

interface OpenAIBucket {
  start_time?: unknown;
  results?: unknown;
  result?: unknown;
}

/** A bucket's results: the API reference names the list `results`; some of its examples `result`. */
const resultsOf = (bucket: OpenAIBucket): Record<string, unknown>[] => {
  const results = bucket.results ?? bucket.result;
  return Array.isArray(results) ? results.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
};

const dayOfBucket = (bucket: OpenAIBucket): string | undefined =>
  typeof bucket.start_time === 'number' ? dayOf(bucket.start_time * 1000) : undefined;

/**
 * OpenAI's organization usage (`GET /organization/usage/completions`, per day, model and API key)
 * and costs (`GET /organization/costs`, per day and API key: OpenAI does not break costs down by
 * model), read with an admin key as `Authorization: Bearer`.
 */
export async function readOpenAIReport(source: ReportSource, range: ReportRange): Promise<ProviderReport> {
  const base = source.baseURL.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${source.adminKey}`, accept: 'application/json' };
  const query = (path: string, groupBy: string[], page: string | undefined) => dailyReportUrl(base, path, range, window, groupBy, page);
  const usageBuckets = (await fetchReportPages(
    "OpenAI's usage report",
    (page) => query('/organization/usage/completions', ['model', 'api_key_id'], page),
    headers,
  )) as OpenAIBucket[];
  const costBuckets = (await fetchReportPages(
    "OpenAI's cost report",
    (page) => query('/organization/costs', ['api_key_id'], page),
    headers,
  )) as OpenAIBucket[];

  const usage: ReportUsage[] = [];
  for (const bucket of usageBuckets) {
    const day = dayOfBucket(bucket);
    if (day === undefined) continue;
    for (const result of resultsOf(bucket)) {
      if (result.object !== undefined && result.object !== 'organization.usage.completions.result') continue;
      const cached = countOf(result.input_cached_tokens);
      const written = countOf(result.input_cache_write_tokens);
      const uncached =
        typeof result.input_uncached_tokens === 'number'
          ? countOf(result.input_uncached_tokens)
          : Math.max(0, countOf(result.input_tokens) - cached - written);
      usage.push({
        day,
        model: textOf(result.model) ?? '(no model)',
        apiKeyId: textOf(result.api_key_id),
        uncachedInputTokens: uncached,
        cachedInputTokens: cached,
        cacheWriteTokens: written,
        outputTokens: countOf(result.output_tokens),
        requests: countOf(result.num_model_requests),
      });
    }
  }
  const costs: ReportCost[] = [];
  for (const bucket of costBuckets) {
    const day = dayOfBucket(bucket);
    if (day === undefined) continue;
    for (const result of resultsOf(bucket)) {
      const amount = result.amount as { value?: unknown; currency?: unknown } | undefined;
      if (typeof amount?.value !== 'number' || (typeof amount.currency === 'string' && amount.currency.toLowerCase() !== 'usd')) continue;
      costs.push({ day, model: undefined, apiKeyId: textOf(result.api_key_id), nanoUsd: Math.round(amount.value * 1e9) });
    }
  }
  return { usage, costs, costGrain: { byModel: false, byKey: true } };
}
