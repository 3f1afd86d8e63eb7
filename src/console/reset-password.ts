import { sendHtml } from './console-http.js';
import { html, type Html } from './html.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';
import { resetTokenUser, useResetToken } from './password-resets.js';
import { endUserSessions } from './sessions.js';
import { findUserById } from './users.js';
import type { Visit } from './visitor-session.js';

function resetPage(ctx: PageContext, state: { token?: string; email?: string; error?: string; done?: boolean }): Html {
  if (state.done === true) {
    return layout(
      ctx,
      'Password changed',
      'none',
      html`<p role="status">Your password is changed. <a href="${ctx.base}/sign-in">Sign in</a> with it.</p>`,
    );
  }
  if (state.token === undefined) {
    return layout(
      ctx,
      'Reset your password',
      'none',
      html`<p role="alert">This reset link was used or has expired: ask an admin of this gateway for a new one.</p>`,
    );
  }
  return layout(
    ctx,
    'Reset your password',
    'none',
    html`${notice(state.error, 'error')}<p>A new password for <strong>${state.email ?? ''}</strong>.</p>
<form method="post" action="${ctx.base}/reset-password">
  ${csrfField(ctx)}<input type="hidden" name="token" value="${state.token}">
  <input type="email" name="email" autocomplete="username" value="${state.email ?? ''}" hidden>
  <label for="password">New password</label>
  <input type="password" id="password" name="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" aria-describedby="password-hint">
  <p class="hint" id="password-hint">At least ${PASSWORD_MIN} characters.</p>
  <p><button type="submit">Set the password</button></p>
</form>`,
  );
}

async function emailOf(visit: Visit, token: string): Promise<string | undefined> {
  const userId = await resetTokenUser(visit.db, token);
  return userId === undefined ? undefined : (await findUserById(visit.db, userId))?.email;
}

export async function showResetPassword(visit: Visit, token: string | undefined): Promise<void> {
  const email = token === undefined ? undefined : await emailOf(visit, token);
  if (token === undefined || email === undefined) return sendHtml(visit.res, 410, resetPage(visit.ctx, {}), visit.cookies);
  return sendHtml(visit.res, 200, resetPage(visit.ctx, { token, email }), visit.cookies);
}

/** Sets the new password through a reset link: the link is used once, and every session of the user ends. */
export async function resetPassword(visit: Visit, form: URLSearchParams): Promise<void> {
  const token = form.get('token') ?? '';
  const password = form.get('password') ?? '';
  const email = await emailOf(visit, token);
  if (email === undefined) return sendHtml(visit.res, 410, resetPage(visit.ctx, {}), visit.cookies);
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return sendHtml(
      visit.res,
      400,
      resetPage(visit.ctx, { token, email, error: `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.` }),
      visit.cookies,
    );
  }
  const passwordHash = await hashPassword(password);
  const userId = await useResetToken(visit.db, token);
  if (userId === undefined) return sendHtml(visit.res, 410, resetPage(visit.ctx, {}), visit.cookies);
  await visit.db.updateTable('console_users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  await endUserSessions(visit.db, userId);
  return sendHtml(visit.res, 200, resetPage(visit.ctx, { done: true }), visit.cookies);
}
