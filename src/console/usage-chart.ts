import { formatUsd } from './format.js';
import { html, type Html } from './html.js';
import type { UsageReportRow } from './usage-report.js';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 48, right: 12, top: 12, bottom: 36 };

/**
 * Requests per day as bars (errors and 429s in a darker part of each bar), with the day's cost in
 * each bar's title: an SVG drawn on the server, so it needs no script. The table under it carries
 * the same numbers for screen readers.
 */
export function usageChart(rows: readonly UsageReportRow[], days: readonly string[]): Html {
  const perDay = new Map(days.map((day) => [day, { requests: 0, failed: 0, cost: 0 }]));
  for (const row of rows) {
    const day = perDay.get(row.day);
    if (day === undefined) continue;
    day.requests += row.requests;
    day.failed += row.errors + row.rateLimited;
    day.cost += row.costNanoUsd;
  }
  const most = Math.max(1, ...[...perDay.values()].map((day) => day.requests));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / most) * plotHeight;
  const labelEvery = Math.ceil(days.length / 8);
  const bars = days.map((dayName, index) => {
    const day = perDay.get(dayName) ?? { requests: 0, failed: 0, cost: 0 };
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    const label = index % labelEvery === 0 ? html`<text x="${(x + barWidth / 2).toFixed(1)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle">${dayName.slice(5)}</text>` : '';
    if (day.requests === 0) return label;
    return html`<g><title>${dayName}: ${day.requests} requests, ${day.failed} errors or 429s, ${formatUsd(day.cost)}</title>
<rect x="${x.toFixed(1)}" y="${y(day.requests).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(plotHeight - (y(day.requests) - PAD.top)).toFixed(1)}" fill="#0b57d0"></rect>
${day.failed > 0 ? html`<rect x="${x.toFixed(1)}" y="${y(day.failed).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(plotHeight - (y(day.failed) - PAD.top)).toFixed(1)}" fill="#a50e0e"></rect>` : ''}</g>${label}`;
  });
  return html`<figure>
<svg role="img" aria-labelledby="chart-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" style="max-width:${WIDTH}px">
<title id="chart-title">Requests per day, ${days[0] ?? ''} to ${days.at(-1) ?? ''}; most in a day: ${most}</title>
<line x1="${PAD.left}" y1="${PAD.top + plotHeight}" x2="${WIDTH - PAD.right}" y2="${PAD.top + plotHeight}" stroke="#767676"></line>
<text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${most}</text>
<text x="${PAD.left - 6}" y="${PAD.top + plotHeight}" text-anchor="end">0</text>
${bars}
</svg>
<figcaption class="hint">Requests per day (UTC); the red part of a bar: errors and 429s. Hover a bar for its cost.</figcaption>
</figure>`;
}
