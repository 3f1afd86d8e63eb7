import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { HttpRequest } from '../http/types.js';
import type { StorageDb } from '../storage/schema.js';
import { originOf, parseCookies, sendHtml, serializeCookie } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { csrfToken } from './csrf.js';
import { html } from './html.js';
import { layout, type PageContext } from './layout.js';
import { sessionUserId } from './sessions.js';
import { findUserById, type ConsoleUser } from './users.js';

export const SESSION_COOKIE = 'switchyard_session';
/** Before sign-in, forms are bound to this random cookie instead of a session. */
const PRE_SESSION_COOKIE = 'switchyard_presession';

/** One request's view: who, where, and the cookies to set with the answer. */
export interface Visit {
  req: HttpRequest;
  res: ServerResponse;
  db: StorageDb;
  path: string;
  query: URLSearchParams;
  ctx: PageContext;
  user: ConsoleUser | undefined;
  sessionToken: string | undefined;
  /** What this request's forms are bound to: the session, or the pre-session cookie. */
  binding: string;
  origin: string;
  secure: boolean;
  cookies: string[];
}

export async function startVisit(
  req: HttpRequest,
  res: ServerResponse,
  db: StorageDb,
  path: string,
  query: URLSearchParams,
  options: ResolvedConsoleOptions,
  secret: Buffer,
): Promise<Visit> {
  const { scheme, host } = originOf(req, options.trustProxy);
  const secure = options.secureCookies === 'auto' ? scheme === 'https' : options.secureCookies;
  const base = `${req.baseUrl ?? ''}${options.basePath}`;
  const cookiePath = base === '' ? '/' : base;
  const jar = parseCookies(req.headers.cookie);
  const cookies: string[] = [];
  let sessionToken = jar.get(SESSION_COOKIE);
  let user: ConsoleUser | undefined;
  if (sessionToken !== undefined) {
    const userId = await sessionUserId(db, sessionToken);
    user = userId === undefined ? undefined : await findUserById(db, userId);
    // A user an admin disabled is signed out (their sessions were ended too; this covers a race with that).
    if (user?.disabledAt !== undefined) user = undefined;
    if (user === undefined) {
      cookies.push(serializeCookie(SESSION_COOKIE, '', { path: cookiePath, secure, maxAgeSeconds: 0 }));
      sessionToken = undefined;
    }
  }
  let binding: string;
  if (sessionToken !== undefined) binding = `session:${sessionToken}`;
  else {
    let pre = jar.get(PRE_SESSION_COOKIE);
    if (pre === undefined || !/^[A-Za-z0-9_-]{43}$/.test(pre)) {
      pre = randomBytes(32).toString('base64url');
      cookies.push(serializeCookie(PRE_SESSION_COOKIE, pre, { path: cookiePath, secure }));
    }
    binding = `pre:${pre}`;
  }
  return {
    req,
    res,
    db,
    path,
    query,
    user,
    sessionToken,
    binding,
    origin: `${scheme}://${host}`,
    secure,
    cookies,
    ctx: { base, user, csrf: csrfToken(secret, binding), ...(options.balances === undefined ? {} : { balances: true }) },
  };
}

/** A form must come from a page of this origin: `Origin` (or else `Referer`), when the browser sends one, must match. */
export function sameOrigin(req: HttpRequest, origin: string): boolean {
  const stated = req.headers.origin;
  if (stated !== undefined) return stated === origin;
  const referer = req.headers.referer;
  if (referer === undefined) return true; // no header to check: the token alone decides
  try {
    return new URL(referer).origin === origin;
  } catch {
    return false;
  }
}

export const cookiePathOf = (visit: Visit) => (visit.ctx.base === '' ? '/' : visit.ctx.base);

export function notFound(visit: Visit): void {
  sendHtml(
    visit.res,
    404,
    layout(visit.ctx, 'Not found', 'none', html`<p>There is nothing here. <a href="${visit.ctx.base}/keys">Your keys</a></p>`),
    visit.cookies,
  );
}

export const modelIds = (options: ResolvedConsoleOptions) => options.models.map((model) => model.id);
