import { TOKEN_KINDS, type Difference, type Reconciliation } from '../reconcile/compare-usage.js';
import { factsText, percentText, PROVIDER_NAMES, SEEN_NOTES, TOKEN_KIND_NAMES } from '../reconcile/format-reconciliation.js';
import type { ReportProvider } from '../reconcile/provider-report.js';
import { formatCount, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';

export interface ReconcilePageState {
  /** The providers whose reports the config gives an admin key for. */
  providers: readonly ReportProvider[];
  provider: ReportProvider | undefined;
  from: string;
  to: string;
  threshold: number;
  result?: Reconciliation;
  error?: string;
}

const signedCount = (value: number) => (value > 0 ? `+${formatCount(value)}` : formatCount(value));
const signedUsd = (nanoUsd: number) => (nanoUsd < 0 ? `−${formatUsd(-nanoUsd)}` : nanoUsd > 0 ? `+${formatUsd(nanoUsd)}` : formatUsd(0));
/** A flagged difference says so in words, not only in colour. */
const flagCell = (difference: Difference) =>
  difference.flagged ? html`<td class="flag"><strong>above threshold</strong></td>` : html`<td></td>`;

function tokenTable(result: Reconciliation): Html {
  return html`<div class="table-scroll"><table>
  <caption>Tokens per UTC day, model and API key (differences are ledger − report)</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Model</th><th scope="col">Key</th><th scope="col">Kind</th><th scope="col" class="num">Ledger</th><th scope="col" class="num">Report</th><th scope="col" class="num">Difference</th><th scope="col" class="num">%</th><th scope="col">Flag</th><th scope="col">Seen</th><th scope="col">Ledger facts</th></tr></thead>
  <tbody>
  ${result.usage.flatMap((line) => {
    const kinds = TOKEN_KINDS.filter((kind) => line.tokens[kind].ledger !== 0 || line.tokens[kind].report !== 0);
    return (kinds.length === 0 ? (['outputTokens'] as const) : kinds).map((kind) => {
      const difference = line.tokens[kind];
      return html`<tr${difference.flagged ? html` class="flagged"` : ''}><td class="when">${line.day}</td><td>${line.model}</td><td><code>${line.apiKey}</code></td><td>${TOKEN_KIND_NAMES[kind]}</td>
<td class="num">${formatCount(difference.ledger)}</td><td class="num">${formatCount(difference.report)}</td><td class="num">${signedCount(difference.difference)}</td><td class="num">${percentText(difference)}</td>${flagCell(difference)}
<td>${SEEN_NOTES[line.seen]}</td><td>${factsText(line.ledger)}${line.reportRequests === undefined ? '' : `; report: ${formatCount(line.reportRequests)} request${line.reportRequests === 1 ? '' : 's'}`}</td></tr>`;
    });
  })}
  </tbody>
</table></div>`;
}

function costTable(result: Reconciliation): Html {
  return html`<div class="table-scroll"><table>
  <caption>Cost per UTC day${result.provider === 'anthropic' ? ' and model (token costs)' : ' and API key (every line item of the organisation)'}</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Model</th><th scope="col">Key</th><th scope="col" class="num">Ledger</th><th scope="col" class="num">Report</th><th scope="col" class="num">Difference</th><th scope="col" class="num">%</th><th scope="col">Flag</th><th scope="col">Seen</th><th scope="col">Note</th></tr></thead>
  <tbody>
  ${result.costs.map(
    (
      line,
    ) => html`<tr${line.cost.flagged ? html` class="flagged"` : ''}><td class="when">${line.day}</td><td>${line.model}</td><td><code>${line.apiKey}</code></td>
<td class="num">${formatUsd(line.cost.ledger)}</td><td class="num">${formatUsd(line.cost.report)}</td><td class="num">${signedUsd(line.cost.difference)}</td><td class="num">${percentText(line.cost)}</td>${flagCell(line.cost)}
<td>${SEEN_NOTES[line.seen]}</td><td>${line.unpricedRows > 0 ? `${formatCount(line.unpricedRows)} unpriced ledger row${line.unpricedRows === 1 ? '' : 's'}, not in the ledger's cost` : ''}</td></tr>`,
  )}
  </tbody>
</table></div>`;
}

/** The admin page comparing a provider's own usage report with the ledger. */
export function reconcilePage(ctx: PageContext, state: ReconcilePageState): Html {
  const { result } = state;
  const body =
    state.providers.length === 0
      ? html`<p>No provider has an admin key. Give one in the config file to compare its usage report with the ledger, e.g. <code>providers: { openai: { apiKey: …, adminKey: \${OPENAI_ADMIN_KEY} } }</code>.</p>`
      : html`<form method="get" action="${ctx.base}/reconcile" class="row">
  <div><label for="provider">Provider</label><select id="provider" name="provider">${state.providers.map((provider) => html`<option value="${provider}"${provider === state.provider ? html` selected` : ''}>${PROVIDER_NAMES[provider]}</option>`)}</select></div>
  <div><label for="from">From (UTC day)</label><input type="date" id="from" name="from" value="${state.from}" required></div>
  <div><label for="to">To (UTC day, included)</label><input type="date" id="to" name="to" value="${state.to}" required></div>
  <div><label for="threshold">Flag above (%)</label><input type="number" id="threshold" name="threshold" value="${String(state.threshold)}" min="0" step="0.1" required></div>
  <div><button type="submit">Compare</button></div>
</form>
<p class="hint">Reads the provider’s own usage and cost reports with the admin key from the config, and compares them with the ledger. Report only: usage the gateway never sent (another client used the key or the organisation). Ledger only: usage the report lacks (it may lag by hours).</p>
${
  result === undefined
    ? ''
    : html`<p role="status">${PROVIDER_NAMES[result.provider]}, ${result.from} to ${result.to}: ${result.flagged === 0 ? `no line differs by more than ${result.threshold} %` : `${result.flagged} line${result.flagged === 1 ? '' : 's'} differ${result.flagged === 1 ? 's' : ''} by more than ${result.threshold} %`}. Ledger: ${factsText(result.totals.ledger)}. Cost: ledger ${formatUsd(result.totals.cost.ledger)}, report ${formatUsd(result.totals.cost.report)}.</p>
${result.usage.length === 0 ? html`<p>Neither the ledger nor the report has token usage in this range.</p>` : tokenTable(result)}
${result.costs.length === 0 ? '' : costTable(result)}`
}`;
  return layout(
    ctx,
    'Reconcile',
    'reconcile',
    html`${state.error === undefined ? '' : html`<div class="notice error" role="alert">${state.error}</div>`}${body}`,
  );
}
