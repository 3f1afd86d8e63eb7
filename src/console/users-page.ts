import { formatTime } from './format.js';
import { html, type Html } from './html.js';
import { csrfField, layout, type PageContext } from './layout.js';
import type { RegistrationMode } from './console-options.js';
import type { ConsoleUser } from './users.js';

export function usersPage(ctx: PageContext, users: readonly ConsoleUser[], mode: RegistrationMode, inviteLink?: string): Html {
  return layout(
    ctx,
    'Users',
    'users',
    html`<p>Registration is <strong>${mode}</strong>${mode === 'invite' ? ': people register with an invitation link an admin made' : mode === 'open' ? ': anyone who can reach the console may register' : ': no one new can register'}.</p>
${
  inviteLink === undefined
    ? ''
    : html`<section class="notice" aria-labelledby="invite-title"><h2 id="invite-title">Invitation link</h2>
<p>Send it to one person; it works once, for 7 days. It is shown only now.</p>
<div class="secret"><output id="invite-link">${inviteLink}</output><button type="button" data-copy="invite-link" hidden>Copy</button></div></section>`
}
${mode === 'invite' ? '' : html`<p>An address listed in the console’s <code>admins</code> registers only with an invitation link.</p>`}
<form method="post" action="${ctx.base}/users/invite">${csrfField(ctx)}<button type="submit">Create an invitation link</button></form>
<div class="table-scroll"><table>
  <caption class="visually-hidden">Users</caption>
  <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Registered</th></tr></thead>
  <tbody>${users.map((user) => html`<tr><td>${user.email}</td><td>${user.isAdmin ? 'admin' : 'user'}</td><td>${formatTime(user.createdAt)}</td></tr>`)}</tbody>
</table></div>`,
  );
}
