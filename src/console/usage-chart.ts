import { formatCost, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import type { UsageReportRow } from './usage-report.js';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 36 };

/** What the chart's bars measure. */
export type ChartMetric = 'requests' | 'tokens' | 'cost';
export const CHART_METRICS: Record<ChartMetric, string> = { requests: 'Requests', tokens: 'Tokens (input + output)', cost: 'Cost (USD)' };

/**
 * One bar per day of `metric` (for requests, the failed requests are the red part of each bar), each
 * bar's title giving the day's numbers: an SVG drawn on the server, so it needs no script. The
 * table under it carries the same numbers for screen readers.
 */
export function usageChart(rows: readonly UsageReportRow[], days: readonly string[], metric: ChartMetric = 'requests'): Html {
  const perDay = new Map(days.map((day) => [day, { requests: 0, failed: 0, cost: 0, tokens: 0, unpriced: 0 }]));
  for (const row of rows) {
    const day = perDay.get(row.day);
    if (day === undefined) continue;
    day.requests += row.requests;
    day.failed += row.errors;
    day.cost += row.costNanoUsd;
    day.unpriced += row.unpriced;
    day.tokens += row.inputTokens + row.outputTokens;
  }
  const measureOf = (day: { requests: number; cost: number; tokens: number }) =>
    metric === 'cost' ? day.cost : metric === 'tokens' ? day.tokens : day.requests;
  const shown = (value: number) => (metric === 'cost' ? formatUsd(value) : String(value));
  const most = Math.max(1, ...[...perDay.values()].map(measureOf));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / most) * plotHeight;
  const labelEvery = Math.ceil(days.length / 8);
  const bars = days.map((dayName, index) => {
    const day = perDay.get(dayName) ?? { requests: 0, failed: 0, cost: 0, tokens: 0, unpriced: 0 };
    const value = measureOf(day);
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    const label =
      index % labelEvery === 0
        ? html`<text x="${(x + barWidth / 2).toFixed(1)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${dayName.slice(5)}</text>`
        : '';
    if (value === 0) return label;
    return html`<g><title>${dayName}: ${day.requests} requests, ${day.tokens} tokens, ${formatCost(day.cost, day.unpriced)}, ${day.failed} failed</title>
<rect x="${x.toFixed(1)}" y="${y(value).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(plotHeight - (y(value) - PAD.top)).toFixed(1)}" fill="#0b57d0"></rect>
${metric === 'requests' && day.failed > 0 ? html`<rect x="${x.toFixed(1)}" y="${y(day.failed).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(plotHeight - (y(day.failed) - PAD.top)).toFixed(1)}" fill="#a50e0e"></rect>` : ''}</g>${label}`;
  });
  return html`<figure>
<svg role="img" aria-labelledby="chart-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" class="chart">
<title id="chart-title">${CHART_METRICS[metric]} per day, ${days[0] ?? ''} to ${days.at(-1) ?? ''}; most in a day: ${shown(most)}</title>
<line x1="${PAD.left}" y1="${PAD.top + plotHeight}" x2="${WIDTH - PAD.right}" y2="${PAD.top + plotHeight}" stroke="#767676"></line>
<text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${metric === 'cost' ? `$${(most / 1e9).toPrecision(2)}` : most}</text>
<text x="${PAD.left - 6}" y="${PAD.top + plotHeight}" text-anchor="end">0</text>
${bars}
</svg>
<figcaption class="hint">${CHART_METRICS[metric]} per day (UTC)${metric === 'requests' ? '; the red part of a bar: failed requests' : ''}. Hover a bar for the day’s numbers.</figcaption>
</figure>`;
}
