import { GatewayError } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import { readAnthropicReport } from './anthropic-report.js';
import { compareUsage, type Reconciliation } from './compare-usage.js';
import { queryLedgerUsage } from './ledger-usage.js';
import { readOpenAIReport } from './openai-report.js';
import type { ReportProvider, ReportRange, ReportSource } from './provider-report.js';

/** The difference, in percent, above which a line is flagged by default. */
export const DEFAULT_THRESHOLD_PERCENT = 0.5;

export interface ReconcileRequest extends ReportRange {
  provider: ReportProvider;
  /** Percent; default DEFAULT_THRESHOLD_PERCENT. */
  threshold?: number;
}

/** The source for `provider`, or a config error saying how to give its admin key. */
export function sourceFor(sources: readonly ReportSource[], provider: ReportProvider): ReportSource {
  const source = sources.find((candidate) => candidate.provider === provider);
  if (source !== undefined) return source;
  const variable = provider === 'openai' ? 'OPENAI_ADMIN_KEY' : 'ANTHROPIC_ADMIN_KEY';
  throw new GatewayError({
    code: 'RECONCILE_NO_ADMIN_KEY',
    message: `Reconciling with ${provider === 'openai' ? 'OpenAI' : 'Anthropic'} reads its usage report with an admin key: give one in the config file, e.g. providers: { ${provider}: { type: ${provider}, apiKey: …, adminKey: \${${variable}} } }.`,
  });
}

/** Reads the provider's usage and cost reports for the range and compares them with the ledger. */
export async function reconcile(db: StorageDb, source: ReportSource, request: ReconcileRequest): Promise<Reconciliation> {
  const range = { from: request.from, to: request.to };
  const report = source.provider === 'openai' ? await readOpenAIReport(source, range) : await readAnthropicReport(source, range);
  const ledger = await queryLedgerUsage(
    db,
    source.gatewayProviders.map((provider) => provider.name),
    range,
  );
  const apiKeyIdOf = new Map(
    source.gatewayProviders.flatMap((provider) => (provider.apiKeyId === undefined ? [] : [[provider.name, provider.apiKeyId] as const])),
  );
  return compareUsage(ledger, report, {
    provider: source.provider,
    ...range,
    threshold: request.threshold ?? DEFAULT_THRESHOLD_PERCENT,
    apiKeyIdOf,
  });
}
