import type { LedgerUsage } from './ledger-usage.js';
import type { ProviderReport, ReportProvider } from './provider-report.js';

/** The token kinds a provider bills apart. */
export const TOKEN_KINDS = ['uncachedInputTokens', 'cachedInputTokens', 'cacheWriteTokens', 'outputTokens'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** `'*'`: every key the config does not name (or every key, when it names none). */
export const ANY_KEY = '*';
/** `'*'` for a cost the report gives for every model at once (OpenAI's). */
export const ANY_MODEL = '*';

/** One quantity in the ledger and in the provider's report. */
export interface Difference {
  ledger: number;
  report: number;
  /** ledger − report: negative when the provider counted more than the gateway recorded. */
  difference: number;
  /** The difference as a percentage of the report; null when the report has 0 and the ledger does not. */
  percent: number | null;
  /** Above the threshold (or against a report of 0). */
  flagged: boolean;
}

/** What the ledger knows about a line: the facts that explain a difference. */
export interface LedgerFacts {
  requests: number;
  attempts: number;
  failedAttempts: number;
  cutStreams: number;
  estimatedRows: number;
  unpricedRows: number;
  uncountedRows: number;
}

/** Where a line's usage was seen. */
export type LineSeen =
  /** In both. */
  | 'both'
  /** Only in the provider's report: usage the gateway never sent (another client used the key or the organisation). */
  | 'report-only'
  /** Only in the ledger: the report lacks usage the gateway sent (not reported yet, another organisation or key). */
  | 'ledger-only';

/** One UTC day × model × API key: each token kind in the ledger and the report. */
export interface UsageLine {
  day: string;
  model: string;
  /** The API key id the config names for the provider that sent it (`apiKeyId`), or ANY_KEY. */
  apiKey: string;
  seen: LineSeen;
  tokens: Record<TokenKind, Difference>;
  ledger: LedgerFacts;
  /** Requests the provider counted, when its report counts them (OpenAI). */
  reportRequests: number | undefined;
  flagged: boolean;
}

/** One UTC day's cost (per model or key, as the provider's cost report breaks it down). */
export interface CostLine {
  day: string;
  model: string;
  apiKey: string;
  seen: LineSeen;
  cost: Difference;
  /** Ledger rows without a price here: the ledger's cost leaves them out. */
  unpricedRows: number;
}

export interface Reconciliation {
  provider: ReportProvider;
  from: string;
  to: string;
  /** Percent. */
  threshold: number;
  usage: UsageLine[];
  costs: CostLine[];
  totals: { tokens: Record<TokenKind, Difference>; cost: Difference; ledger: LedgerFacts };
  /** Lines above the threshold, usage and cost. */
  flagged: number;
}

export interface CompareOptions {
  provider: ReportProvider;
  from: string;
  to: string;
  threshold: number;
  /** The API key id the config names for a configured provider (`apiKeyId`). */
  apiKeyIdOf: ReadonlyMap<string, string>;
}

const noFacts = (): LedgerFacts => ({
  requests: 0,
  attempts: 0,
  failedAttempts: 0,
  cutStreams: 0,
  estimatedRows: 0,
  unpricedRows: 0,
  uncountedRows: 0,
});

function addFacts(into: LedgerFacts, row: LedgerFacts): void {
  for (const name of Object.keys(into) as (keyof LedgerFacts)[]) into[name] += row[name];
}

export function differenceOf(ledger: number, report: number, threshold: number): Difference {
  const difference = ledger - report;
  const percent = report === 0 ? (ledger === 0 ? 0 : null) : (difference / report) * 100;
  return { ledger, report, difference, percent, flagged: percent === null || Math.abs(percent) > threshold };
}

/** A dated snapshot suffix a provider reports a model by (`-2024-07-18`, `-20250514`). */
const SNAPSHOT = /^-\d{4}-?\d{2}-?\d{2}$/;

/**
 * The ledger's name for a model the report names: the same, or the alias the gateway asked for
 * when the report gives the dated snapshot that answered (`gpt-4o-mini` for
 * `gpt-4o-mini-2024-07-18`). The longest such alias wins.
 */
export function modelMatcher(ledgerModels: Iterable<string>): (reported: string) => string {
  const known = [...new Set(ledgerModels)].sort((a, b) => b.length - a.length);
  const exact = new Set(known);
  return (reported) => {
    if (exact.has(reported)) return reported;
    return known.find((model) => reported.startsWith(model) && SNAPSHOT.test(reported.slice(model.length))) ?? reported;
  };
}

const lineKey = (day: string, model: string, apiKey: string) => `${day}\u0000${model}\u0000${apiKey}`;
const byLine = (a: { day: string; model: string; apiKey: string }, b: { day: string; model: string; apiKey: string }) =>
  a.day.localeCompare(b.day) || a.model.localeCompare(b.model) || a.apiKey.localeCompare(b.apiKey);

/**
 * Compares the ledger with a provider's report per UTC day × model × API key: each token kind,
 * then cost at the grain the provider's cost report has. Pure.
 *
 * A report line's key is its `api_key_id` when the config names that id for one of the gateway's
 * providers, else ANY_KEY; a ledger line's is its provider's `apiKeyId`, else ANY_KEY. With no key
 * ids in the config, every line is per day × model over all keys.
 */
export function compareUsage(ledger: readonly LedgerUsage[], report: ProviderReport, options: CompareOptions): Reconciliation {
  const { threshold } = options;
  const namedKeys = new Set(options.apiKeyIdOf.values());
  const keyOfReport = (id: string | null) => (id !== null && namedKeys.has(id) ? id : ANY_KEY);
  const keyOfLedger = (provider: string) => options.apiKeyIdOf.get(provider) ?? ANY_KEY;
  const ledgerModel = modelMatcher(ledger.map((row) => row.model));

  type Sums = Record<TokenKind, number>;
  const zero = (): Sums => ({ uncachedInputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 });
  const lines = new Map<
    string,
    { day: string; model: string; apiKey: string; ledger?: Sums; report?: Sums; facts: LedgerFacts; reportRequests?: number }
  >();
  const lineAt = (day: string, model: string, apiKey: string) => {
    const key = lineKey(day, model, apiKey);
    let line = lines.get(key);
    if (line === undefined) lines.set(key, (line = { day, model, apiKey, facts: noFacts() }));
    return line;
  };
  for (const row of ledger) {
    const line = lineAt(row.day, row.model, keyOfLedger(row.provider));
    line.ledger ??= zero();
    for (const kind of TOKEN_KINDS) line.ledger[kind] += row[kind];
    addFacts(line.facts, row);
  }
  for (const row of report.usage) {
    const line = lineAt(row.day, ledgerModel(row.model), keyOfReport(row.apiKeyId));
    line.report ??= zero();
    for (const kind of TOKEN_KINDS) line.report[kind] += row[kind];
    if (row.requests !== undefined) line.reportRequests = (line.reportRequests ?? 0) + row.requests;
  }
  const usage: UsageLine[] = [...lines.values()]
    .map((line) => {
      const tokens = Object.fromEntries(
        TOKEN_KINDS.map((kind) => [kind, differenceOf(line.ledger?.[kind] ?? 0, line.report?.[kind] ?? 0, threshold)]),
      ) as Record<TokenKind, Difference>;
      return {
        day: line.day,
        model: line.model,
        apiKey: line.apiKey,
        seen:
          line.ledger === undefined ? ('report-only' as const) : line.report === undefined ? ('ledger-only' as const) : ('both' as const),
        tokens,
        ledger: line.facts,
        reportRequests: line.reportRequests,
        flagged: TOKEN_KINDS.some((kind) => tokens[kind].flagged),
      };
    })
    .sort(byLine);

  // Costs: the ledger summed at the grain of the provider's cost report.
  const { byModel, byKey } = report.costGrain;
  const costs = new Map<string, { day: string; model: string; apiKey: string; ledger?: number; report?: number; unpriced: number }>();
  const costAt = (day: string, model: string, apiKey: string) => {
    const key = lineKey(day, model, apiKey);
    let line = costs.get(key);
    if (line === undefined) costs.set(key, (line = { day, model, apiKey, unpriced: 0 }));
    return line;
  };
  for (const row of ledger) {
    const line = costAt(row.day, byModel ? row.model : ANY_MODEL, byKey ? keyOfLedger(row.provider) : ANY_KEY);
    line.ledger = (line.ledger ?? 0) + row.costNanoUsd;
    line.unpriced += row.unpricedRows;
  }
  for (const row of report.costs) {
    const line = costAt(row.day, byModel ? ledgerModel(row.model ?? '(no model)') : ANY_MODEL, byKey ? keyOfReport(row.apiKeyId) : ANY_KEY);
    line.report = (line.report ?? 0) + row.nanoUsd;
  }
  const costLines: CostLine[] = [...costs.values()]
    .map((line) => ({
      day: line.day,
      model: line.model,
      apiKey: line.apiKey,
      seen: line.ledger === undefined ? ('report-only' as const) : line.report === undefined ? ('ledger-only' as const) : ('both' as const),
      cost: differenceOf(line.ledger ?? 0, line.report ?? 0, threshold),
      unpricedRows: line.unpriced,
    }))
    .sort(byLine);

  const facts = noFacts();
  for (const row of ledger) addFacts(facts, row);
  const sum = (values: readonly { ledger: number; report: number }[]) =>
    values.reduce((total, value) => ({ ledger: total.ledger + value.ledger, report: total.report + value.report }), {
      ledger: 0,
      report: 0,
    });
  const totalTokens = Object.fromEntries(
    TOKEN_KINDS.map((kind) => {
      const { ledger: inLedger, report: inReport } = sum(usage.map((line) => line.tokens[kind]));
      return [kind, differenceOf(inLedger, inReport, threshold)];
    }),
  ) as Record<TokenKind, Difference>;
  const totalCost = sum(costLines.map((line) => line.cost));
  return {
    provider: options.provider,
    from: options.from,
    to: options.to,
    threshold,
    usage,
    costs: costLines,
    totals: { tokens: totalTokens, cost: differenceOf(totalCost.ledger, totalCost.report, threshold), ledger: facts },
    flagged: usage.filter((line) => line.flagged).length + costLines.filter((line) => line.cost.flagged).length,
  };
}
