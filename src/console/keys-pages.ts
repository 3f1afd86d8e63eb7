import type { StoredKey } from '../access/stored-keys.js';
import type { AbnormalSpend, RecentRequest } from '../usage/abnormal-spend.js';
import { formatCost, formatTime, formatUsd, isoDay } from './format.js';
import { html, type Html } from './html.js';
import { LIMIT_INPUTS, type KeySettings } from './key-settings.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';
import type { KeySpend } from './usage-report.js';

export interface KeyRow {
  key: StoredKey;
  ownerEmail: string | undefined;
  spent: KeySpend;
  /** Its spend in the last hour jumped against its own hourly average. */
  unusual?: AbnormalSpend;
}

/** A badge on a key whose spend jumped, linking to its last requests. */
export const unusualBadge = (ctx: PageContext, publicId: string, spend: AbnormalSpend): Html =>
  html` <a class="badge" href="${ctx.base}/keys/${publicId}#recent" title="${formatUsd(spend.lastHourNanoUsd)} in the last hour against ${formatUsd(spend.hourlyAverageNanoUsd)} an hour on average">unusual spend</a>`;

function status(key: StoredKey, now: number): string {
  if (key.revokedAt !== undefined) return `revoked ${formatTime(key.revokedAt)}`;
  if (key.expiresAt !== undefined && key.expiresAt <= now) return 'expired';
  if (key.paused !== undefined) return `paused ${formatTime(key.paused.at)}`;
  return 'active';
}

/** The fields of a key's settings, shared by the create and edit forms. */
export function settingsFields(models: readonly string[], settings: KeySettings | undefined): Html {
  const chosen = new Set(settings?.models ?? []);
  const limit = (field: keyof typeof LIMIT_INPUTS) => {
    const input = LIMIT_INPUTS[field];
    return html`<div><label for="${input.name}">${input.label}</label><input type="number" min="1" step="1" id="${input.name}" name="${input.name}" value="${settings?.limits?.[field] ?? ''}"></div>`;
  };
  const budget = settings?.budget ?? undefined;
  return html`<fieldset class="checks"><legend>Models</legend>
  <p class="hint">None ticked: every model, including ones added later.</p>
  ${models.map((id, index) => html`<label for="model-${index}"><input type="checkbox" id="model-${index}" name="models" value="${id}"${chosen.has(id) ? html` checked` : ''}> ${id}</label>`)}
</fieldset>
<fieldset><legend>Limits and budget</legend>
  <p class="hint">Empty: the gateway’s default limits, no budget.</p>
  <div class="row">${limit('requestsPerMinute')}${limit('tokensPerMinute')}${limit('concurrency')}</div>
  <div class="row">
    <div><label for="budget_usd">Budget (USD)</label><input type="number" min="0" step="any" id="budget_usd" name="budget_usd" value="${budget === undefined ? '' : String(budget.nanoUsd / 1e9)}"></div>
    <div><label for="budget_period">Budget period</label><select id="budget_period" name="budget_period">
      ${(['day', 'month', 'never'] as const).map((period) => html`<option value="${period}"${(budget?.period ?? 'month') === period ? html` selected` : ''}>${period === 'never' ? 'in all (never resets)' : `per ${period}`}</option>`)}
    </select></div>
    <div><label for="expires">Expires after (UTC day)</label><input type="date" id="expires" name="expires" value="${settings?.expiresAt === null || settings?.expiresAt === undefined ? '' : isoDay(settings.expiresAt - 1)}"></div>
  </div>
</fieldset>`;
}

export interface KeysPageState {
  rows: readonly KeyRow[];
  models: readonly string[];
  /** The key just created: its one showing. */
  created?: { key: string; publicId: string };
  error?: string;
  info?: string;
  now: number;
}

export function keysPage(ctx: PageContext, state: KeysPageState): Html {
  const admin = ctx.user?.isAdmin === true;
  const created =
    state.created === undefined
      ? ''
      : html`<section class="notice" aria-labelledby="created-title">
  <h2 id="created-title">Your new key</h2>
  <p><strong>Copy it now: it is shown only this once.</strong> Store it in a secret manager (or your CI’s secrets), not in code or chat. Use one key per client or app, so you can see each one’s usage and revoke one without breaking the others.</p>
  <div class="secret"><output id="new-key" aria-label="The new key">${state.created.key}</output><button type="button" data-copy="new-key" hidden>Copy</button></div>
  <p class="hint">For a shell, the key in the environment the snippets on Connect read:</p>
  <div class="secret"><output id="new-key-env" aria-label="The new key as a shell line">export SWITCHYARD_API_KEY='${state.created.key}'</output><button type="button" data-copy="new-key-env" hidden>Copy line</button></div>
  <p class="hint">Its public id, safe to share and shown in lists: <code>${state.created.publicId}</code>. <a href="${ctx.base}/connect?key=${state.created.publicId}" target="_blank" rel="noopener">How to use it</a> (opens in a new tab, so this key stays here until you have saved it).</p>
</section>`;
  const table =
    state.rows.length === 0
      ? html`<p>No keys yet.</p>`
      : html`<div class="table-scroll"><table>
  <caption class="visually-hidden">Your keys</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Public id</th>${admin ? html`<th scope="col">Owner</th>` : ''}<th scope="col">Status</th><th scope="col">Last used</th><th scope="col" class="num">Spent</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>
  ${state.rows.map(({ key, ownerEmail, spent, unusual }) => {
    const live = key.revokedAt === undefined;
    return html`<tr>
    <td>${key.name}</td><td><code>${key.publicId}</code></td>${admin ? html`<td>${ownerEmail ?? '—'}</td>` : ''}
    <td>${status(key, state.now)}${unusual === undefined ? '' : unusualBadge(ctx, key.publicId, unusual)}</td><td class="when">${formatTime(key.lastUsedAt)}</td><td class="num">${formatCost(spent.nanoUsd, spent.unpriced)}</td>
    <td>${
      live
        ? html`<a href="${ctx.base}/keys/${key.publicId}">Settings<span class="visually-hidden"> of ${key.name}</span></a>
      <form method="post" action="${ctx.base}/keys/${key.publicId}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="danger" aria-label="Revoke ${key.name}">Revoke</button></form>`
        : ''
    }</td>
  </tr>`;
  })}
  </tbody>
</table></div>`;
  return layout(
    ctx,
    'Keys',
    'keys',
    html`${notice(state.error, 'error')}${notice(state.info)}${created}
${table}
<h2 id="new-key-title">Create a key</h2>
<form method="post" action="${ctx.base}/keys" aria-labelledby="new-key-title">
  ${csrfField(ctx)}
  <label for="name">Name</label>
  <input type="text" id="name" name="name" required maxlength="100" aria-describedby="name-hint">
  <p class="hint" id="name-hint">What will use it, e.g. “laptop — Claude Code” or “CI”.</p>
  <details><summary>Models, limits, budget, expiry</summary>${settingsFields(state.models, undefined)}</details>
  <p><button type="submit">Create key</button></p>
</form>`,
  );
}

/** What a key's page shows of its spend: whether it jumped, and its last requests. */
export interface KeyActivity {
  unusual: AbnormalSpend | undefined;
  recent: readonly RecentRequest[];
}

/** A key paused for unusual spend: why, and for an admin the button that lifts it. */
function pauseNotice(ctx: PageContext, key: StoredKey): Html | '' {
  if (key.paused === undefined) return '';
  return html`<div class="notice error" role="status" id="key-paused">Paused ${formatTime(key.paused.at)} after unusual spend${key.paused.reason === undefined ? '' : ` (${key.paused.reason})`}: requests with this key are refused (code <code>KEY_PAUSED</code>) until an admin lifts the pause. Its last requests are below.
${ctx.user?.isAdmin === true ? html`<form method="post" action="${ctx.base}/keys/${key.publicId}/unpause" class="inline">${csrfField(ctx)}<button type="submit">Lift the pause</button></form>` : ''}</div>`;
}

function activitySection(activity: KeyActivity): Html {
  return html`<section aria-labelledby="recent-title" id="recent"><h2 id="recent-title">Last requests</h2>
${activity.unusual === undefined ? '' : html`<div class="notice error" role="status" id="unusual-spend">Unusual spend: ${formatUsd(activity.unusual.lastHourNanoUsd)} in the last hour, against ${formatUsd(activity.unusual.hourlyAverageNanoUsd)} an hour on average over the day before. If that is not expected, revoke the key.</div>`}
<div class="table-scroll"><table>
  <caption class="visually-hidden">The key's last requests, newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Request id</th><th scope="col">Model</th><th scope="col" class="num">Status</th><th scope="col" class="num">Input</th><th scope="col" class="num">Output</th><th scope="col" class="num">Cost</th></tr></thead>
  <tbody>${activity.recent.map(
    (request) =>
      html`<tr><td class="when">${formatTime(request.at)}</td><td><code>${request.requestId}</code></td><td>${request.model ?? '—'}</td><td class="num">${request.status}</td><td class="num">${request.inputTokens ?? '—'}</td><td class="num">${request.outputTokens ?? '—'}</td><td class="num">${request.costNanoUsd === null ? 'unpriced' : formatUsd(request.costNanoUsd)}</td></tr>`,
  )}</tbody>
</table></div></section>`;
}

export function keySettingsPage(
  ctx: PageContext,
  key: StoredKey,
  models: readonly string[],
  settings: KeySettings,
  error?: string,
  activity?: KeyActivity,
): Html {
  const admin = ctx.user?.isAdmin === true;
  return layout(
    ctx,
    `Key settings: ${key.name}`,
    'keys',
    html`${notice(error, 'error')}${pauseNotice(ctx, key)}
<p>Public id <code>${key.publicId}</code>. ${admin ? '' : 'You can narrow this key (fewer models, an earlier expiry, a lower budget or limit); only an admin can widen it.'}</p>
<form method="post" action="${ctx.base}/keys/${key.publicId}">
  ${csrfField(ctx)}
  <label for="name">Name</label>
  <input type="text" id="name" name="name" required maxlength="100" value="${key.name}">
  ${settingsFields(models, settings)}
  <p><button type="submit">Save</button> <a href="${ctx.base}/keys">Cancel</a></p>
</form>
${activity === undefined ? '' : activitySection(activity)}`,
  );
}
