import { describe, expect, it } from 'vitest';
import { compareUsage, differenceOf, modelMatcher } from '../../src/reconcile/compare-usage.js';
import type { LedgerUsage } from '../../src/reconcile/ledger-usage.js';
import type { ProviderReport, ReportUsage } from '../../src/reconcile/provider-report.js';

const facts = { requests: 10, attempts: 10, failedAttempts: 0, cutStreams: 0, estimatedRows: 0, unpricedRows: 0, uncountedRows: 0 };
const ledgerRow = (day: string, model: string, tokens: Partial<LedgerUsage> = {}): LedgerUsage => ({
  day,
  model,
  provider: 'openai',
  uncachedInputTokens: 1_000,
  cachedInputTokens: 200,
  cacheWriteTokens: 0,
  outputTokens: 500,
  costNanoUsd: 3_000_000,
  ...facts,
  ...tokens,
});
const reportRow = (day: string, model: string, tokens: Partial<ReportUsage> = {}): ReportUsage => ({
  day,
  model,
  apiKeyId: 'key_gateway',
  uncachedInputTokens: 1_000,
  cachedInputTokens: 200,
  cacheWriteTokens: 0,
  outputTokens: 500,
  requests: 10,
  ...tokens,
});
const options = {
  provider: 'openai' as const,
  from: '2026-11-01',
  to: '2026-11-03',
  threshold: 0.5,
  apiKeyIdOf: new Map<string, string>(),
};
const openAIReport = (usage: ReportUsage[], costs: ProviderReport['costs'] = []): ProviderReport => ({
  usage,
  costs,
  costGrain: { byModel: false, byKey: true },
});

describe('compareUsage', () => {
  it('should match the dated snapshot a provider reports to the alias the gateway asked for, and flag only what passes the threshold', () => {
    const result = compareUsage(
      [ledgerRow('2026-11-01', 'gpt-4o-mini', { outputTokens: 504 }), ledgerRow('2026-11-02', 'gpt-4o-mini', { outputTokens: 510 })],
      openAIReport([reportRow('2026-11-01', 'gpt-4o-mini-2024-07-18'), reportRow('2026-11-02', 'gpt-4o-mini-2024-07-18')]),
      options,
    );
    expect(
      result.usage.map((line) => [
        line.day,
        line.model,
        line.seen,
        line.tokens.outputTokens.difference,
        line.tokens.outputTokens.percent,
        line.flagged,
      ]),
    ).toEqual([
      ['2026-11-01', 'gpt-4o-mini', 'both', 4, 0.8, true],
      ['2026-11-02', 'gpt-4o-mini', 'both', 10, 2, true],
    ]);
    expect(
      compareUsage(
        [ledgerRow('2026-11-01', 'gpt-4o-mini', { outputTokens: 502 })],
        openAIReport([reportRow('2026-11-01', 'gpt-4o-mini-2024-07-18')]),
        options,
      ).usage[0]?.flagged,
    ).toBe(false);
    expect(result.usage[0]?.reportRequests).toBe(10);
    expect(result.totals.tokens.outputTokens).toMatchObject({ ledger: 1_014, report: 1_000, difference: 14 });
  });

  it('should show usage the gateway never sent as report only, and days the report lacks as ledger only', () => {
    const result = compareUsage(
      [ledgerRow('2026-11-01', 'gpt-4.1'), ledgerRow('2026-11-03', 'gpt-4.1', { cutStreams: 2 })],
      openAIReport([reportRow('2026-11-01', 'gpt-4.1'), reportRow('2026-11-02', 'gpt-4.1', { outputTokens: 9_000 })]),
      options,
    );
    expect(result.usage.map((line) => [line.day, line.seen, line.flagged])).toEqual([
      ['2026-11-01', 'both', false],
      ['2026-11-02', 'report-only', true],
      ['2026-11-03', 'ledger-only', true],
    ]);
    expect(result.usage[1]?.tokens.outputTokens).toEqual({ ledger: 0, report: 9_000, difference: -9_000, percent: -100, flagged: true });
    expect(result.usage[2]?.tokens.outputTokens).toEqual({ ledger: 500, report: 0, difference: 500, percent: null, flagged: true });
    expect(result.usage[2]?.ledger.cutStreams).toBe(2);
    // The two lines, and the two days' ledger cost a report without costs cannot match.
    expect(result.flagged).toBe(4);
  });

  it("should compare per API key where the config names the gateway's key, and put other keys' usage apart", () => {
    const result = compareUsage(
      [ledgerRow('2026-11-01', 'gpt-4.1')],
      openAIReport([
        reportRow('2026-11-01', 'gpt-4.1'),
        reportRow('2026-11-01', 'gpt-4.1', { apiKeyId: 'key_someone_else', outputTokens: 7 }),
      ]),
      { ...options, apiKeyIdOf: new Map([['openai', 'key_gateway']]) },
    );
    expect(result.usage.map((line) => [line.apiKey, line.seen, line.tokens.outputTokens.report, line.flagged])).toEqual([
      ['*', 'report-only', 7, true],
      ['key_gateway', 'both', 500, false],
    ]);
    // Without key ids in the config, every key's usage is one line per day and model.
    const pooled = compareUsage(
      [ledgerRow('2026-11-01', 'gpt-4.1')],
      openAIReport([reportRow('2026-11-01', 'gpt-4.1'), reportRow('2026-11-01', 'gpt-4.1', { apiKeyId: 'key_x', outputTokens: 7 })]),
      options,
    );
    expect(pooled.usage.map((line) => [line.apiKey, line.tokens.outputTokens.report])).toEqual([['*', 507]]);
  });

  it("should compare cost at the grain of the provider's cost report: per model (Anthropic) or per key (OpenAI)", () => {
    const ledger = [
      ledgerRow('2026-11-01', 'claude-sonnet-4', { provider: 'anthropic', costNanoUsd: 2_000_000, unpricedRows: 1 }),
      ledgerRow('2026-11-01', 'claude-haiku-4', { provider: 'anthropic', costNanoUsd: 1_000_000 }),
    ];
    const anthropic = compareUsage(
      ledger,
      {
        usage: [],
        costs: [{ day: '2026-11-01', model: 'claude-sonnet-4-20250514', apiKeyId: null, nanoUsd: 2_000_000 }],
        costGrain: { byModel: true, byKey: false },
      },
      { ...options, provider: 'anthropic' },
    );
    expect(anthropic.costs.map((line) => [line.model, line.apiKey, line.seen, line.cost.difference, line.unpricedRows])).toEqual([
      ['claude-haiku-4', '*', 'ledger-only', 1_000_000, 0],
      ['claude-sonnet-4', '*', 'both', 0, 1],
    ]);
    const openai = compareUsage(
      [ledgerRow('2026-11-01', 'a'), ledgerRow('2026-11-01', 'b')],
      openAIReport([], [{ day: '2026-11-01', model: undefined, apiKeyId: 'key_gateway', nanoUsd: 6_600_000 }]),
      { ...options, apiKeyIdOf: new Map([['openai', 'key_gateway']]) },
    );
    expect(
      openai.costs.map((line) => [line.model, line.apiKey, line.cost.ledger, line.cost.report, line.cost.percent, line.cost.flagged]),
    ).toEqual([['*', 'key_gateway', 6_000_000, 6_600_000, expect.closeTo(-9.09, 2), true]]);
  });

  it('should give a percentage of the report, none against a report of 0, and 0 when both are 0', () => {
    expect(differenceOf(1_005, 1_000, 0.5)).toEqual({ ledger: 1_005, report: 1_000, difference: 5, percent: 0.5, flagged: false });
    expect(differenceOf(0, 0, 0.5)).toMatchObject({ percent: 0, flagged: false });
    expect(differenceOf(1, 0, 0.5)).toMatchObject({ percent: null, flagged: true });
  });

  it('should fold only dated snapshots into an alias, the longest alias first', () => {
    const match = modelMatcher(['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4']);
    expect(match('gpt-4o-mini-2024-07-18')).toBe('gpt-4o-mini');
    expect(match('gpt-4o-2024-08-06')).toBe('gpt-4o');
    expect(match('claude-sonnet-4-20250514')).toBe('claude-sonnet-4');
    expect(match('gpt-4o-audio-preview')).toBe('gpt-4o-audio-preview');
  });
});
