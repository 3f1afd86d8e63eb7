import { formatCost, formatCount, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';
import { CHART_METRICS, usageChart, type ChartMetric } from './usage-chart.js';
import type { UsageReportRow } from './usage-report.js';

export interface UsagePageState {
  rows: readonly UsageReportRow[];
  /** The range's days, oldest first (`2026-11-27`). */
  days: readonly string[];
  from: string;
  to: string;
  metric: ChartMetric;
  /** Key public id → name, for the table. */
  keyNames: ReadonlyMap<string, string>;
  error?: string;
}

/** A cost never reads $0 for traffic without a price: its unpriced requests are counted instead. */
const cost = (nanoUsd: number, unpriced: number): Html | string => {
  if (unpriced === 0) return formatUsd(nanoUsd);
  const count = `${formatCount(unpriced)} unpriced`;
  return nanoUsd === 0 ? count : html`${formatUsd(nanoUsd)}<br><span class="hint">+ ${count}</span>`;
};

export function usagePage(ctx: PageContext, state: UsagePageState): Html {
  const total = state.rows.reduce(
    (sum, row) => ({
      requests: sum.requests + row.requests,
      tokens: sum.tokens + row.inputTokens + row.outputTokens,
      cost: sum.cost + row.costNanoUsd,
      unpriced: sum.unpriced + row.unpriced,
    }),
    { requests: 0, tokens: 0, cost: 0, unpriced: 0 },
  );
  const query = `from=${state.from}&to=${state.to}`;
  return layout(
    ctx,
    'Usage',
    'usage',
    html`${state.error === undefined ? '' : html`<div class="notice error" role="alert">${state.error}</div>`}
<form method="get" action="${ctx.base}/usage" class="row">
  <div><label for="from">From (UTC day)</label><input type="date" id="from" name="from" value="${state.from}" required></div>
  <div><label for="to">To (UTC day, included)</label><input type="date" id="to" name="to" value="${state.to}" required></div>
  <div><label for="metric">Chart</label><select id="metric" name="metric">${(Object.keys(CHART_METRICS) as ChartMetric[]).map((metric) => html`<option value="${metric}"${metric === state.metric ? html` selected` : ''}>${CHART_METRICS[metric]}</option>`)}</select></div>
  <div><button type="submit">Show</button></div>
  <div><a class="button" href="${ctx.base}/usage.csv?${query}" download>Download CSV</a></div>
</form>
<p>${ctx.user?.isAdmin ? 'Every key’s usage.' : 'Your keys’ usage.'} ${formatCount(total.requests)} request${total.requests === 1 ? '' : 's'}, ${formatCount(total.tokens)} tokens, ${formatCost(total.cost, total.unpriced)}.</p>
${usageChart(state.rows, state.days, state.metric)}
${
  state.rows.length === 0
    ? html`<p>No requests in this range.</p>`
    : html`<div class="table-scroll"><table>
  <caption class="visually-hidden">Usage per day, key and model</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Key</th><th scope="col">Model</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Attempts</th><th scope="col" class="num">Input tokens</th><th scope="col" class="num">Cached</th><th scope="col" class="num">Output tokens</th><th scope="col" class="num">Cost</th><th scope="col" class="num">Failed requests</th><th scope="col" class="num">429s</th></tr></thead>
  <tbody>
  ${state.rows.map(
    (row) => html`<tr>
    <td class="when">${row.day}</td><td>${row.keyId === null ? html`<span class="hint">configured key</span>` : html`${state.keyNames.get(row.keyId) ?? ''} <code>${row.keyId}</code>`}</td><td>${row.model ?? '—'}</td>
    <td class="num">${formatCount(row.requests)}</td><td class="num">${formatCount(row.attempts)}</td><td class="num">${formatCount(row.inputTokens)}</td><td class="num">${formatCount(row.cachedInputTokens)}</td><td class="num">${formatCount(row.outputTokens)}</td>
    <td class="num">${cost(row.costNanoUsd, row.unpriced)}</td><td class="num">${formatCount(row.errors)}</td><td class="num">${formatCount(row.rateLimited)}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`
}`,
  );
}

/** A CSV field, quoted when needed. */
export const csvField = (value: string | number | null): string => {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Text people typed (a key's name), with a leading = + - @ defused so a spreadsheet does not run it as a formula. */
export const typedText = (text: string | null): string | null => (text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

export function usageCsv(rows: readonly UsageReportRow[], keyNames: ReadonlyMap<string, string>): string {
  const header = [
    'day',
    'key_id',
    'key_name',
    'model',
    'requests',
    'attempts',
    'input_tokens',
    'cached_input_tokens',
    'output_tokens',
    'cost_usd',
    'unpriced_requests',
    'errors',
    'rate_limited_429',
  ];
  const lines = rows.map((row) =>
    [
      row.day,
      row.keyId,
      row.keyId === null ? null : typedText(keyNames.get(row.keyId) ?? null),
      row.model,
      row.requests,
      row.attempts,
      row.inputTokens,
      row.cachedInputTokens,
      row.outputTokens,
      (row.costNanoUsd / 1e9).toFixed(9),
      row.unpriced,
      row.errors,
      row.rateLimited,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
