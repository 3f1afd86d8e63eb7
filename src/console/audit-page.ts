import type { AuditEntry } from './audit-log.js';
import { formatTime } from './format.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';

export function auditPage(ctx: PageContext, entries: readonly AuditEntry[]): Html {
  return layout(
    ctx,
    'Audit log',
    'users',
    html`<p>Every admin action, newest first (the latest ${entries.length}).</p>
<div class="table-scroll"><table id="audit-log">
  <caption class="visually-hidden">Admin actions</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Admin</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Detail</th></tr></thead>
  <tbody>${entries.map((entry) => html`<tr><td class="when">${formatTime(entry.at)}</td><td>${entry.actorEmail}</td><td><code>${entry.action}</code></td><td>${entry.target ?? '—'}</td><td>${entry.detail ?? ''}</td></tr>`)}</tbody>
</table></div>`,
  );
}
