import { html, type Html } from './html.js';
import type { ConsoleUser } from './users.js';

export type Section = 'keys' | 'usage' | 'balance' | 'models' | 'connect' | 'users' | 'codes' | 'reconcile' | 'none';

/** What every page needs: where the console is mounted, who is signed in and the form token. */
export interface PageContext {
  /** The console's mount path, without a trailing slash ('' at the root). */
  base: string;
  user: ConsoleUser | undefined;
  csrf: string;
  /** The gateway has account balances: the balance and codes pages are shown. */
  balances?: boolean;
}

/** A hidden field carrying the CSRF token: every form has one. */
export const csrfField = (ctx: PageContext): Html => html`<input type="hidden" name="csrf" value="${ctx.csrf}">`;

export function layout(ctx: PageContext, title: string, section: Section, body: Html): Html {
  const link = (target: Section, path: string, label: string) =>
    html`<li><a href="${ctx.base}${path}"${target === section ? html` aria-current="page"` : ''}>${label}</a></li>`;
  const nav =
    ctx.user === undefined
      ? ''
      : html`<nav aria-label="Console"><ul>
          ${link('keys', '/keys', 'Keys')}${link('usage', '/usage', 'Usage')}${ctx.balances === true ? link('balance', '/balance', 'Balance') : ''}${link('models', '/models', 'Models')}${link('connect', '/connect', 'Connect')}${ctx.user.isAdmin ? link('users', '/users', 'Users') : ''}${ctx.user.isAdmin && ctx.balances === true ? link('codes', '/codes', 'Codes') : ''}${ctx.user.isAdmin ? link('reconcile', '/reconcile', 'Reconcile') : ''}
        </ul></nav>
        <form method="post" action="${ctx.base}/sign-out" class="inline">${csrfField(ctx)}<span class="hint">${ctx.user.email}${ctx.user.isAdmin ? ' (admin)' : ''}</span> <button type="submit" class="secondary">Sign out</button></form>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchyard</title>
<link rel="stylesheet" href="${ctx.base}/assets/console.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">Skip to the page</a>
<header><a class="brand" href="${ctx.base}/">Switchyard</a>${nav}</header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
<script src="${ctx.base}/assets/console.js" defer></script>
</body>
</html>`;
}

/** A message above a form: an error (role=alert, read out at once) or a notice. */
export const notice = (text: string | undefined, kind: 'error' | 'info' = 'info'): Html | '' =>
  text === undefined
    ? ''
    : kind === 'error'
      ? html`<div class="notice error" role="alert">${text}</div>`
      : html`<div class="notice" role="status">${text}</div>`;
