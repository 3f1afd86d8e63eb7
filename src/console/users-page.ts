import { formatTime, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';
import type { RegistrationMode } from './console-options.js';
import type { ConsoleUser } from './users.js';

/** A link shown once on the users page: an invitation, or a password reset for one user. */
export interface ShownLink {
  kind: 'invite' | 'reset';
  url: string;
  /** The user a reset link is for. */
  email?: string;
}

export interface UsersPageState {
  link?: ShownLink;
  info?: string;
  error?: string;
  /** Accounts with a key whose spend jumped in the last hour. */
  unusual?: ReadonlySet<string>;
  /** Each account's balance (nano-USD), when the gateway has balances. */
  balances?: ReadonlyMap<string, number>;
}

function balanceCell(ctx: PageContext, user: ConsoleUser, balance: number): Html {
  return html`<td class="num"><a href="${ctx.base}/balance?account=${user.id}">${formatUsd(balance)}</a>
  <form method="post" action="${ctx.base}/users/${user.id}/top-up" class="top-up">${csrfField(ctx)}
    <label for="usd-${user.id}" class="visually-hidden">Amount in USD for ${user.email}</label><input id="usd-${user.id}" name="usd" type="number" step="0.01" required placeholder="USD" size="6">
    <label for="kind-${user.id}" class="visually-hidden">Kind of credit for ${user.email}</label><select id="kind-${user.id}" name="kind"><option value="top-up">top-up</option><option value="refund">refund</option><option value="adjustment">adjustment (±)</option></select>
    <label for="note-${user.id}" class="visually-hidden">Why, for ${user.email}</label><input id="note-${user.id}" name="note" placeholder="why" size="12" maxlength="200">
    <button type="submit" aria-label="Top up ${user.email}">Add</button></form></td>`;
}

function userActions(ctx: PageContext, user: ConsoleUser): Html | '' {
  // No action on oneself: an admin cannot lock themselves out or leave the gateway without an admin by mistake.
  if (ctx.user?.id === user.id) return html`<span class="hint">you</span>`;
  const action = (path: string, label: string, kind = 'secondary') =>
    html`<form method="post" action="${ctx.base}/users/${user.id}/${path}" class="inline">${csrfField(ctx)}<button type="submit" class="${kind}" aria-label="${label} ${user.email}">${label}</button></form>`;
  return html`${user.isAdmin ? action('member', 'Make member') : action('admin', 'Make admin')}
    ${user.disabledAt === undefined ? action('disable', 'Disable', 'danger') : action('enable', 'Enable')}
    ${action('reset-link', 'Password reset link')}
    ${action('delete', 'Delete', 'danger')}`;
}

export function usersPage(ctx: PageContext, users: readonly ConsoleUser[], mode: RegistrationMode, state: UsersPageState = {}): Html {
  const { link } = state;
  return layout(
    ctx,
    'Users',
    'users',
    html`${notice(state.error, 'error')}${notice(state.info)}<p>Registration is <strong>${mode}</strong>${mode === 'invite' ? ': people register with an invitation link an admin made' : mode === 'open' ? ': anyone who can reach the console may register' : ': no one new can register'}.</p>
${
  link === undefined
    ? ''
    : link.kind === 'invite'
      ? html`<section class="notice" aria-labelledby="invite-title"><h2 id="invite-title">Invitation link</h2>
<p>Send it to one person; it works once, for 7 days. It is shown only now.</p>
<div class="secret"><output id="invite-link">${link.url}</output><button type="button" data-copy="invite-link" hidden>Copy</button></div></section>`
      : html`<section class="notice" aria-labelledby="reset-title"><h2 id="reset-title">Password reset link for ${link.email ?? ''}</h2>
<p>Send it to them by a way you trust; it works once, for 24 hours, and ends their sessions when used. It is shown only now.</p>
<div class="secret"><output id="reset-link">${link.url}</output><button type="button" data-copy="reset-link" hidden>Copy</button></div></section>`
}
${mode === 'invite' ? '' : html`<p>An address listed in the console’s <code>admins</code> registers only with an invitation link.</p>`}
<form method="post" action="${ctx.base}/users/invite">${csrfField(ctx)}<button type="submit">Create an invitation link</button></form>
<p><a href="${ctx.base}/audit">Audit log</a>: every admin action.</p>
<div class="table-scroll"><table>
  <caption class="visually-hidden">Users</caption>
  <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Registered</th>${state.balances === undefined ? '' : html`<th scope="col" class="num">Balance</th>`}<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${users.map(
    (user) =>
      html`<tr><td>${user.email}${state.unusual?.has(user.id) === true ? html` <a class="badge" href="${ctx.base}/keys">unusual spend</a>` : ''}</td><td>${user.isAdmin ? 'admin' : 'member'}</td><td>${user.disabledAt === undefined ? 'active' : html`disabled ${formatTime(user.disabledAt)}`}</td><td>${formatTime(user.createdAt)}</td>${state.balances === undefined ? '' : balanceCell(ctx, user, state.balances.get(user.id) ?? 0)}<td>${userActions(ctx, user)}</td></tr>`,
  )}</tbody>
</table></div>`,
  );
}
