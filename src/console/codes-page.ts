import type { CodeBatch } from '../limits/redemption-codes.js';
import { formatTime, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';

export function codesPage(
  ctx: PageContext,
  batches: readonly CodeBatch[],
  state: { created?: { codes: readonly string[]; nanoUsd: number }; error?: string } = {},
): Html {
  return layout(
    ctx,
    'Redemption codes',
    'codes',
    html`${notice(state.error, 'error')}
${
  state.created === undefined
    ? ''
    : html`<section class="notice" aria-labelledby="codes-title"><h2 id="codes-title">${state.created.codes.length} new codes worth ${formatUsd(state.created.nanoUsd)} each</h2>
<p>Each works once. They are shown only now: only their hashes are kept.</p>
<div class="secret"><pre id="new-codes">${state.created.codes.join('\n')}</pre><button type="button" data-copy="new-codes" hidden>Copy</button></div></section>`
}
<form method="post" action="${ctx.base}/codes">${csrfField(ctx)}
  <div class="row">
  <div><label for="count">How many</label><input id="count" name="count" type="number" min="1" max="1000" value="10" required></div>
  <div><label for="usd">Worth each (USD)</label><input id="usd" name="usd" type="number" min="0.01" step="0.01" required></div>
  <div><label for="days">Valid for (days)</label><input id="days" name="days" type="number" min="1" max="3650" value="30" required></div>
  </div>
  <p><button type="submit">Create codes</button></p>
</form>
<div class="table-scroll"><table id="code-batches">
  <caption class="visually-hidden">Batches of codes</caption>
  <thead><tr><th scope="col">Batch</th><th scope="col">Made</th><th scope="col" class="num">Worth each</th><th scope="col" class="num">Codes</th><th scope="col" class="num">Redeemed</th><th scope="col">Expires</th></tr></thead>
  <tbody>${batches.map(
    (batch) =>
      html`<tr><td><code>${batch.batchId}</code></td><td class="when">${formatTime(batch.createdAt)}</td><td class="num">${formatUsd(batch.nanoUsd)}</td><td class="num">${batch.count}</td><td class="num">${batch.redeemed}</td><td class="when">${formatTime(batch.expiresAt)}</td></tr>`,
  )}</tbody>
</table></div>`,
  );
}
