/** The providers whose own usage reports the gateway can read. */
export type ReportProvider = 'openai' | 'anthropic';

export const REPORT_PROVIDERS: readonly ReportProvider[] = ['openai', 'anthropic'];

/** Where a provider's usage report is read, and which of the gateway's configured providers bill to it. */
export interface ReportSource {
  provider: ReportProvider;
  /** The organisation's admin key: sent to `baseURL` only, never logged or shown. */
  adminKey: string;
  /** OpenAI: `https://api.openai.com/v1`; Anthropic: `https://api.anthropic.com` (without `/v1`). */
  baseURL: string;
  /**
   * The configured providers (as the ledger's `provider` column names them) whose traffic the
   * report covers, each with the id the report gives its API key (`key_…`, `apikey_…`) when known.
   */
  gatewayProviders: ReadonlyArray<{ name: string; apiKeyId?: string }>;
}

/** One UTC day's usage of one model (and one API key, when the report says) in the provider's report. */
export interface ReportUsage {
  /** `2026-11-27` */
  day: string;
  model: string;
  /** The provider's id of the API key; null when the report did not group by key. */
  apiKeyId: string | null;
  /** Input tokens neither read from nor written to the prompt cache. */
  uncachedInputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Output tokens, reasoning included. */
  outputTokens: number;
  /** Requests the provider counted (OpenAI); undefined when the report does not count them (Anthropic). */
  requests: number | undefined;
}

/** One UTC day's cost in the provider's cost report, at the grain the report gives. */
export interface ReportCost {
  day: string;
  /** Undefined when the report does not break costs down by model (OpenAI). */
  model: string | undefined;
  /** Null when the report does not break costs down by key (Anthropic), or gives a cost no key made. */
  apiKeyId: string | null;
  nanoUsd: number;
}

/** A provider's usage and cost reports over a range of days. */
export interface ProviderReport {
  usage: ReportUsage[];
  costs: ReportCost[];
  /** What the costs are broken down by: a comparison sums the ledger the same way. */
  costGrain: { byModel: boolean; byKey: boolean };
}

/** The days to read: `from` and `to` are UTC days, both included. */
export interface ReportRange {
  from: string;
  to: string;
}

export const DAY_MS = 86_400_000;

/** Epoch ms of a UTC day's midnight. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The UTC day of an epoch-ms time. */
export const dayOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);
