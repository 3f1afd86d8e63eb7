import { STATUS_WINDOWS, type ModelState, type ModelStatus, type StatusReport, type WindowFigures } from './status-report.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character,
  );

const STATE_LABEL: Record<ModelState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  failing: 'Failing',
  'no-traffic': 'No traffic in the last hour',
};

const WINDOW_LABEL = { hour: 'Last hour', day: 'Last 24 hours', week: 'Last 7 days' } as const;

const percent = (rate: number | null) => (rate === null ? '—' : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`);

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return minutes > 0 ? `${minutes} min` : `${Math.floor(seconds)} s`;
}

const time = (iso: string) => `<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>`;

/** One figure's row: its name, then its value in each window. */
function row(name: string, cell: (figures: WindowFigures) => string, model: ModelStatus): string {
  return `<tr><th scope="row">${name}</th>${STATUS_WINDOWS.map((window) => `<td>${cell(model.windows[window])}</td>`).join('')}</tr>`;
}

function modelSection(model: ModelStatus, index: number): string {
  const id = escapeHtml(model.id);
  const lastError =
    model.lastError === null
      ? 'none in the last 7 days'
      : `<code>${escapeHtml(model.lastError.code)}</code> (HTTP ${model.lastError.status}) at ${time(model.lastError.at)}`;
  return `<section aria-labelledby="model-${index}">
<h2 id="model-${index}"><code>${id}</code> <span class="state state-${model.state}">${STATE_LABEL[model.state]}</span></h2>
<table>
<caption>Figures of <code>${id}</code> from its live traffic</caption>
<thead><tr><th scope="col">Figure</th>${STATUS_WINDOWS.map((window) => `<th scope="col">${WINDOW_LABEL[window]}</th>`).join('')}</tr></thead>
<tbody>
${row('Requests', (f) => `${f.requests}${f.probes > 0 ? ` <small>(${f.probes} probe${f.probes === 1 ? '' : 's'})</small>` : ''}`, model)}
${row('Success rate', (f) => percent(f.successRate), model)}
${row('Time to first token, p50', (f) => (f.firstTokenMs === null ? '—' : `${f.firstTokenMs.p50} ms`), model)}
${row('Time to first token, p95', (f) => (f.firstTokenMs === null ? '—' : `${f.firstTokenMs.p95} ms`), model)}
${row('Output tokens per second', (f) => (f.outputTokensPerSecond === null ? '—' : String(f.outputTokensPerSecond)), model)}
${row('Rate limited (429)', (f) => percent(f.rateLimitedRate), model)}
${row('Upstream errors', (f) => percent(f.upstreamErrorRate), model)}
</tbody>
</table>
<p>Last error: ${lastError}.${model.lastProbeAt === null ? '' : ` Last probe: ${time(model.lastProbeAt)}.`}</p>
</section>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;width:100%}caption{text-align:left;color:#444;padding:.25rem 0}
th,td{border:1px solid #999;padding:.3rem .6rem;text-align:left}td{font-variant-numeric:tabular-nums}
thead th{background:#eee}.state{font-size:.9rem;padding:.1rem .5rem;border-radius:.3rem;border:1px solid}
.state-operational{color:#0b5e1a;background:#e3f6e6}.state-degraded{color:#6b4700;background:#fff3d6}
.state-failing{color:#8a1010;background:#fde4e4}.state-no-traffic{color:#333;background:#f0f0f0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
a{color:#0645ad}:focus{outline:3px solid #0645ad;outline-offset:2px}`;

/** The status page: server-rendered, no script, no external resource. */
export function renderStatusHtml(report: StatusReport): string {
  const notice = report.ledger
    ? ''
    : '<p role="alert">The usage ledger cannot be read (no database is configured, or it cannot be reached): there are no figures to show.</p>';
  const probe = report.probe.enabled
    ? `models without traffic for ${Math.round((report.probe.intervalMs ?? 0) / 1000)} s get a tiny request`
    : 'off';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Service status — Switchyard</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Service status</h1>
<dl>
<dt>Version</dt><dd>${escapeHtml(report.version)}</dd>
<dt>Uptime</dt><dd>${duration(report.uptimeSeconds)} (this instance, since ${time(report.startedAt)})</dd>
<dt>As of</dt><dd>${time(report.generatedAt)}</dd>
<dt>Probe</dt><dd>${probe}</dd>
</dl>
<p>From the requests every instance of this gateway answered. Rates count answers that succeeded, were rate limited or failed upstream; a caller's own errors are left out. <a href="status.json">This page as JSON</a>.</p>
</header>
<main>
${notice}${report.models.map(modelSection).join('\n')}
</main>
</body>
</html>
`;
}
