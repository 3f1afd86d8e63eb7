import type { StorageDb } from '../storage/schema.js';
import { registerPage, registrationClosedPage, signInPage } from './auth-pages.js';
import { clientAddress, redirect, sendHtml, serializeCookie } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { enrolUser, type EnrolRefusal } from './enrol-user.js';
import { inviteIsValid } from './invites.js';
import type { LoginThrottle } from './login-limits.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './passwords.js';
import { startSession } from './sessions.js';
import { countUsers, EMAIL_MAX, findUserByEmail } from './users.js';
import { cookiePathOf, SESSION_COOKIE, type Visit } from './visitor-session.js';

export async function signIn(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, throttle: LoginThrottle): Promise<void> {
  const { ctx, res, db } = visit;
  const email = (form.get('email') ?? '').trim().toLowerCase().slice(0, EMAIL_MAX);
  const password = (form.get('password') ?? '').slice(0, PASSWORD_MAX);
  const canRegister = options.registration === 'open';
  const address = clientAddress(visit.req, options.proxyHops);
  // A quick look first (no count for an attempt refused anyway), then the attempt is counted before the slow check.
  const locked = await throttle.retryAfterMs(email, address);
  const wait = locked > 0 ? locked : await throttle.reserve(email, address);
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60_000);
    res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
    return sendHtml(
      res,
      429,
      signInPage(ctx, {
        email,
        canRegister,
        error: `Too many failed sign-ins (code LOGIN_RATE_LIMITED). Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      }),
      visit.cookies,
    );
  }
  const found = await findUserByEmail(db, email);
  if (!(await verifyPassword(found?.passwordHash, password)) || found === undefined) {
    return sendHtml(res, 401, signInPage(ctx, { email, canRegister, error: 'Wrong e-mail or password.' }), visit.cookies);
  }
  await throttle.succeeded(email, address);
  if (found.user.disabledAt !== undefined) {
    return sendHtml(
      res,
      403,
      signInPage(ctx, { email, canRegister, error: 'This account is disabled (code ACCOUNT_DISABLED): ask an admin of this gateway.' }),
      visit.cookies,
    );
  }
  return signedIn(visit, found.user.id, options);
}

/** A new session (a new cookie value: one from before sign-in is never reused) and on to the keys. */
async function signedIn(visit: Visit, userId: string, options: ResolvedConsoleOptions): Promise<void> {
  const token = await startSession(visit.db, userId, options.sessionTtlMs);
  const cookie = serializeCookie(SESSION_COOKIE, token, {
    path: cookiePathOf(visit),
    secure: visit.secure,
    maxAgeSeconds: Math.floor(options.sessionTtlMs / 1000),
  });
  redirect(visit.res, `${visit.ctx.base}/keys`, [...visit.cookies, cookie]);
}

/**
 * Whether to show the registration form: anyone while there is no user; then as `registration`
 * says, or with a valid invitation link (in any mode: an `admins` address registers only with one).
 * `enrolUser` decides again when the account is made.
 */
export async function registrationAllows(
  db: StorageDb,
  options: ResolvedConsoleOptions,
  invite: string | undefined,
): Promise<{ ok: boolean; first: boolean }> {
  if ((await countUsers(db)) === 0) return { ok: true, first: true };
  if (invite !== undefined) return { ok: await inviteIsValid(db, invite), first: false };
  return { ok: options.registration === 'open', first: false };
}

const REFUSALS: Record<EnrolRefusal, string> = {
  taken: 'There is already an account with this e-mail address: sign in instead.',
  invite: 'This invitation link was used or has expired: ask an admin for a new one.',
  closed: 'Registration here is closed: ask an admin of this gateway for an account.',
  'admin-invite': 'This address is one of this gateway’s admins: it registers only with an invitation link an admin made (Users page).',
};

export async function showRegister(
  visit: Visit,
  options: ResolvedConsoleOptions,
  invite: string | undefined,
  email?: string,
  error?: string,
): Promise<void> {
  const allowed = await registrationAllows(visit.db, options, invite);
  if (!allowed.ok)
    return sendHtml(
      visit.res,
      403,
      registrationClosedPage(visit.ctx, options.registration === 'closed' ? 'closed' : 'invite'),
      visit.cookies,
    );
  const state = {
    first: allowed.first,
    ...(invite === undefined ? {} : { invite }),
    ...(email === undefined ? {} : { email }),
    ...(error === undefined ? {} : { error }),
  };
  return sendHtml(visit.res, error === undefined ? 200 : 400, registerPage(visit.ctx, state), visit.cookies);
}

export async function register(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions): Promise<void> {
  const { db } = visit;
  const invite = form.get('invite') ?? undefined;
  const email = (form.get('email') ?? '').trim().toLowerCase();
  const password = form.get('password') ?? '';
  const allowed = await registrationAllows(db, options, invite);
  if (!allowed.ok) return showRegister(visit, options, invite);
  if (email.length > EMAIL_MAX)
    return showRegister(visit, options, invite, undefined, `The e-mail address is too long: at most ${EMAIL_MAX} characters.`);
  if (!/^[^\s@]+@[^\s@]+$/.test(email))
    return showRegister(visit, options, invite, email, 'Enter an e-mail address, like name@example.com.');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return showRegister(visit, options, invite, email, `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`);
  }
  const enrolled = await enrolUser(db, options, { email, passwordHash: await hashPassword(password), invite });
  if ('refused' in enrolled) return showRegister(visit, options, invite, email, REFUSALS[enrolled.refused]);
  options.logger.info({ userId: enrolled.user.id, admin: enrolled.user.isAdmin }, 'switchyard: console user registered');
  return signedIn(visit, enrolled.user.id, options);
}
