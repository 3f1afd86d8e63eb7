import { html, type Html } from './html.js';
import { csrfField, layout, notice, type PageContext } from './layout.js';
import { PASSWORD_MIN } from './passwords.js';

export function signInPage(ctx: PageContext, state: { email?: string; error?: string; info?: string; canRegister: boolean }): Html {
  return layout(
    ctx,
    'Sign in',
    'none',
    html`${notice(state.error, 'error')}${notice(state.info)}
<form method="post" action="${ctx.base}/sign-in">
  ${csrfField(ctx)}
  <label for="email">E-mail</label>
  <input type="email" id="email" name="email" autocomplete="username" required value="${state.email ?? ''}">
  <label for="password">Password</label>
  <input type="password" id="password" name="password" autocomplete="current-password" required>
  <p><button type="submit">Sign in</button></p>
</form>
${state.canRegister ? html`<p>No account yet? <a href="${ctx.base}/register">Register</a>.</p>` : ''}`,
  );
}

export function registerPage(ctx: PageContext, state: { email?: string; error?: string; invite?: string; first: boolean }): Html {
  return layout(
    ctx,
    'Register',
    'none',
    html`${notice(state.error, 'error')}
${state.first ? html`<p class="notice" role="status">No one has registered yet: the first account is this gateway’s admin.</p>` : ''}
<form method="post" action="${ctx.base}/register">
  ${csrfField(ctx)}
  ${state.invite === undefined ? '' : html`<input type="hidden" name="invite" value="${state.invite}">`}
  <label for="email">E-mail</label>
  <input type="email" id="email" name="email" autocomplete="username" required value="${state.email ?? ''}">
  <label for="password">Password</label>
  <input type="password" id="password" name="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" aria-describedby="password-hint">
  <p class="hint" id="password-hint">At least ${PASSWORD_MIN} characters.</p>
  <p><button type="submit">Register</button></p>
</form>
<p>Already registered? <a href="${ctx.base}/sign-in">Sign in</a>.</p>`,
  );
}

/** Registration is closed, or needs an invitation this request does not carry. */
export function registrationClosedPage(ctx: PageContext, mode: 'invite' | 'closed'): Html {
  return layout(
    ctx,
    'Register',
    'none',
    html`<p>${mode === 'invite' ? 'Registration here is by invitation: ask an admin of this gateway for an invitation link.' : 'Registration here is closed: ask an admin of this gateway for an account.'}</p>
<p><a href="${ctx.base}/sign-in">Sign in</a></p>`,
  );
}
