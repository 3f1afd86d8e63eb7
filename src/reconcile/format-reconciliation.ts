import { TOKEN_KINDS, type Difference, type LedgerFacts, type LineSeen, type Reconciliation, type TokenKind } from './compare-usage.js';

/** How each token kind is named in tables. */
export const TOKEN_KIND_NAMES: Record<TokenKind, string> = {
  uncachedInputTokens: 'input, uncached',
  cachedInputTokens: 'cache read',
  cacheWriteTokens: 'cache write',
  outputTokens: 'output',
};

export const PROVIDER_NAMES = { openai: 'OpenAI', anthropic: 'Anthropic' } as const;

export const SEEN_NOTES: Record<LineSeen, string> = {
  both: 'both',
  'report-only': 'report only',
  'ledger-only': 'ledger only',
};

const count = (value: number) => value.toLocaleString('en-US');
const signed = (value: number, text: string) => (value > 0 ? `+${text}` : text);
const usd = (nanoUsd: number) => `${nanoUsd < 0 ? '-' : ''}$${(Math.abs(nanoUsd) / 1e9).toFixed(Math.abs(nanoUsd) >= 100e9 ? 2 : 6)}`;

/** A difference's percentage as shown: `+1.25 %`, or `new` when the report has none of it. */
export const percentText = (difference: Difference): string =>
  difference.percent === null ? 'not in report' : `${signed(difference.percent, difference.percent.toFixed(2))} %`;

/** The ledger facts worth saying about a line: `12 requests, 2 cut streams, 1 unpriced`. */
export function factsText(facts: LedgerFacts): string {
  const parts = [`${count(facts.requests)} request${facts.requests === 1 ? '' : 's'}`];
  if (facts.attempts > facts.requests) parts.push(`${count(facts.attempts)} attempts`);
  if (facts.failedAttempts > 0) parts.push(`${count(facts.failedAttempts)} failed`);
  if (facts.cutStreams > 0) parts.push(`${count(facts.cutStreams)} cut stream${facts.cutStreams === 1 ? '' : 's'}`);
  if (facts.estimatedRows > 0) parts.push(`${count(facts.estimatedRows)} estimated`);
  if (facts.uncountedRows > 0) parts.push(`${count(facts.uncountedRows)} without counts`);
  if (facts.unpricedRows > 0) parts.push(`${count(facts.unpricedRows)} unpriced`);
  return parts.join(', ');
}

function table(headings: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headings.map((heading, column) => Math.max(heading.length, ...rows.map((row) => (row[column] ?? '').length)));
  return `${[headings, ...rows]
    .map((cells) =>
      cells
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

const flag = (difference: Difference) => (difference.flagged ? '!' : '');

/** The reconciliation as text tables: tokens per day × model × key and kind, then cost, then totals and what the marks mean. */
export function formatReconciliation(result: Reconciliation): string {
  const name = PROVIDER_NAMES[result.provider];
  const out = [
    `${name}'s usage report against the ledger, ${result.from} to ${result.to} (UTC days). Differences are ledger − report; ! marks one above ${result.threshold} %.\n`,
  ];
  if (result.usage.length === 0 && result.costs.length === 0) {
    out.push(`\nNeither the ledger nor ${name}'s report has usage in that range.\n`);
    return out.join('');
  }
  const tokenRows = result.usage.flatMap((line) => {
    const kinds = TOKEN_KINDS.filter((kind) => line.tokens[kind].ledger !== 0 || line.tokens[kind].report !== 0);
    const shown = kinds.length === 0 ? (['outputTokens'] as TokenKind[]) : kinds;
    return shown.map((kind, index) => {
      const difference = line.tokens[kind];
      const first = index === 0;
      return [
        first ? line.day : '',
        first ? line.model : '',
        first ? line.apiKey : '',
        TOKEN_KIND_NAMES[kind],
        count(difference.ledger),
        count(difference.report),
        signed(difference.difference, count(difference.difference)),
        percentText(difference),
        flag(difference),
        first ? SEEN_NOTES[line.seen] : '',
        first
          ? `${factsText(line.ledger)}${line.reportRequests === undefined ? '' : `; report: ${count(line.reportRequests)} request${line.reportRequests === 1 ? '' : 's'}`}`
          : '',
      ];
    });
  });
  out.push(
    '\nTOKENS\n',
    table(['DAY', 'MODEL', 'KEY', 'KIND', 'LEDGER', 'REPORT', 'DIFFERENCE', '%', '', 'SEEN', 'LEDGER FACTS'], tokenRows),
  );
  if (result.costs.length > 0) {
    const costRows = result.costs.map((line) => [
      line.day,
      line.model,
      line.apiKey,
      usd(line.cost.ledger),
      usd(line.cost.report),
      signed(line.cost.difference, usd(line.cost.difference)),
      percentText(line.cost),
      flag(line.cost),
      SEEN_NOTES[line.seen],
      line.unpricedRows > 0
        ? `${count(line.unpricedRows)} unpriced ledger row${line.unpricedRows === 1 ? '' : 's'}, not in the ledger's cost`
        : '',
    ]);
    out.push('\nCOST\n', table(['DAY', 'MODEL', 'KEY', 'LEDGER', 'REPORT', 'DIFFERENCE', '%', '', 'SEEN', 'NOTE'], costRows));
  }
  const totals = result.totals;
  out.push(
    '\nTOTAL\n',
    table(
      ['KIND', 'LEDGER', 'REPORT', 'DIFFERENCE', '%', ''],
      [
        ...TOKEN_KINDS.map((kind) => [
          TOKEN_KIND_NAMES[kind],
          count(totals.tokens[kind].ledger),
          count(totals.tokens[kind].report),
          signed(totals.tokens[kind].difference, count(totals.tokens[kind].difference)),
          percentText(totals.tokens[kind]),
          flag(totals.tokens[kind]),
        ]),
        [
          'cost',
          usd(totals.cost.ledger),
          usd(totals.cost.report),
          signed(totals.cost.difference, usd(totals.cost.difference)),
          percentText(totals.cost),
          flag(totals.cost),
        ],
      ],
    ),
    `Ledger: ${factsText(totals.ledger)}.\n`,
    `\n${result.flagged === 0 ? `No line differs by more than ${result.threshold} %.` : `${result.flagged} line${result.flagged === 1 ? '' : 's'} differ${result.flagged === 1 ? 's' : ''} by more than ${result.threshold} %.`}\n`,
  );
  if (result.usage.some((line) => line.seen === 'report-only') || result.costs.some((line) => line.seen === 'report-only')) {
    out.push(
      'report only: usage the gateway never sent — another client used the key (KEY *: a key the config names no apiKeyId for) or the organisation.\n',
    );
  }
  if (result.usage.some((line) => line.seen === 'ledger-only') || result.costs.some((line) => line.seen === 'ledger-only')) {
    out.push(
      'ledger only: usage the gateway recorded that the report lacks — the report may lag by hours, or the key belongs to another organisation.\n',
    );
  }
  return out.join('');
}
