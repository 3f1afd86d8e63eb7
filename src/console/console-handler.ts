import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sharedSecret } from '../access/shared-secret.js';
import type { StoredKey } from '../access/stored-keys.js';
import { configError } from '../canonical/index.js';
import type { HttpRequest, Next } from '../http/types.js';
import { consoleLogger } from '../logger.js';
import type { StorageDb } from '../storage/schema.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { registerPage, registrationClosedPage, signInPage } from './auth-pages.js';
import { clientAddress, FormTooLarge, originOf, parseCookies, readForm, redirect, sendHtml, sendText, serializeCookie } from './console-http.js';
import type { ConsoleOptions, RegistrationMode, ResolvedConsoleOptions } from './console-options.js';
import { connectPage } from './connect-page.js';
import { csrfToken, csrfTokenMatches } from './csrf.js';
import { isoDay } from './format.js';
import { html } from './html.js';
import { createInvite, inviteIsValid, useInvite } from './invites.js';
import { keyOwners, ownerOf, setKeyOwner } from './key-owners.js';
import { narrowingError, parseKeySettings, settingsOf, type KeySettings } from './key-settings.js';
import { keySettingsPage, keysPage, type KeysPageState } from './keys-pages.js';
import { layout, type PageContext } from './layout.js';
import { LoginThrottle } from './login-limits.js';
import { modelsPage } from './models-page.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './passwords.js';
import { endSession, sessionUserId, startSession } from './sessions.js';
import { usageCsv, usagePage } from './usage-page.js';
import { spendByKey, usageReport } from './usage-report.js';
import { countUsers, createUser, findUserByEmail, findUserById, listUsers, type ConsoleUser } from './users.js';
import { usersPage } from './users-page.js';

/** The console as a request handler: Express middleware at any mount path, or a `node:http` handler. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse, next?: Next) => void;

const SESSION_COOKIE = 'switchyard_session';
/** Before sign-in, forms are bound to this random cookie instead of a session. */
const PRE_SESSION_COOKIE = 'switchyard_presession';
const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;
const REGISTRATION_MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

function resolveConsoleOptions(options: ConsoleOptions): ResolvedConsoleOptions {
  const { keys, storage, models } = options.gateway;
  if (keys === undefined || storage === undefined) {
    throw configError('CONFIG_CONSOLE_NEEDS_DATABASE', 'The console keeps users, sessions and keys in the gateway’s database: create the gateway with gateway({ database: … }).');
  }
  const registration = options.registration ?? 'open';
  if (!REGISTRATION_MODES.includes(registration)) {
    throw configError('CONFIG_CONSOLE_INVALID', `console registration must be 'open', 'invite' or 'closed' (got '${String(registration)}').`);
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw configError('CONFIG_CONSOLE_INVALID', `console basePath must start with / (got '${basePath}'), e.g. '/console'.`);
  if (options.apiRoot !== undefined && !/^https?:\/\/[^/]/.test(options.apiRoot)) {
    throw configError('CONFIG_CONSOLE_INVALID', `console apiRoot must be an http(s) URL (got '${options.apiRoot}'), e.g. 'https://llm.example.com'.`);
  }
  return {
    keys,
    db: storage,
    models,
    registration,
    admins: new Set((options.admins ?? []).map((email) => email.trim().toLowerCase())),
    secureCookies: options.secureCookies ?? 'auto',
    trustProxy: options.trustProxy ?? false,
    sessionTtlMs: options.sessionTtlMs ?? 7 * DAY_MS,
    loginLimits: { perAccount: 5, perAddress: 50, windowMs: 15 * 60_000, ...options.loginLimits },
    apiRoot: options.apiRoot?.replace(/\/+$/, ''),
    basePath,
    userKeys: options.userKeys,
    logger: options.logger ?? consoleLogger,
  };
}

/** One request's view: who, where, and the cookies to set with the answer. */
interface Visit {
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

/**
 * The console: register and sign in, keys, models, usage and how to connect a client. Server-rendered
 * pages that work without script (a small script only adds copy buttons).
 *
 * @example
 * const api = gateway({ database: 'switchyard.db', models });
 * app.use('/console', switchyardConsole({ gateway: api, registration: 'invite' }));
 * app.use(api);
 */
export function switchyardConsole(options: ConsoleOptions): ConsoleHandler {
  const resolved = resolveConsoleOptions(options);
  let secret: Promise<Buffer> | undefined;
  const csrfSecret = (db: StorageDb) => {
    secret ??= sharedSecret(db, 'console-csrf').catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
  let throttle: LoginThrottle | undefined;

  return function switchyardConsoleHandler(incoming, res, next) {
    const req = incoming as HttpRequest;
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    // A plain node:http server hands over the whole path: the console's part follows `basePath`.
    const prefix = resolved.basePath;
    const within = prefix === '' ? url.pathname : url.pathname === prefix ? '/' : url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : undefined;
    const path = within === undefined ? undefined : within.length > 1 ? within.replace(/\/$/, '') : within;
    const route = path === undefined ? undefined : routeOf(req.method ?? 'GET', path);
    if (route === undefined || path === undefined) {
      if (next) next();
      else sendText(res, 404, 'text/plain; charset=utf-8', 'Not found.\n');
      return;
    }
    if (route === 'asset') {
      const css = path.endsWith('.css');
      sendText(res, 200, css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', css ? CONSOLE_CSS : CONSOLE_JS, { 'Cache-Control': 'public, max-age=3600' });
      return;
    }
    void (async () => {
      const db = await resolved.db();
      throttle ??= new LoginThrottle(db, resolved.loginLimits);
      const visit = await startVisit(req, res, db, path, url.searchParams, resolved, await csrfSecret(db));
      if (req.method === 'POST') {
        const form = await readForm(req);
        if (!sameOrigin(req, visit.origin) || !csrfTokenMatches(await csrfSecret(db), visit.binding, form.get('csrf'))) {
          resolved.logger.warn({ path }, 'switchyard: console form refused (CSRF_TOKEN_INVALID)');
          sendHtml(res, 403, layout(visit.ctx, 'Form refused', 'none', html`<p role="alert">This form expired or came from another site (code <code>CSRF_TOKEN_INVALID</code>). Go back, reload the page and try again.</p>`), visit.cookies);
          return;
        }
        await handlePost(visit, form, resolved, throttle);
      } else {
        await handleGet(visit, resolved);
      }
    })().catch((error: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (error instanceof FormTooLarge) {
        sendText(res, 413, 'text/plain; charset=utf-8', 'The form is too large.\n');
        return;
      }
      resolved.logger.error({ error, path }, 'switchyard: console request failed');
      sendText(res, 503, 'text/plain; charset=utf-8', 'The console cannot reach its database right now; try again in a moment.\n', { 'Retry-After': '5' });
    });
  };
}

type Route = 'asset' | 'page' | 'form';

/** Which console paths exist, by method; undefined hands the request on (a host app's own routes, the API). */
function routeOf(method: string, path: string): Route | undefined {
  const get = method === 'GET' || method === 'HEAD';
  if (get && (path === '/assets/console.css' || path === '/assets/console.js')) return 'asset';
  if (get && /^\/(|sign-in|register|keys|keys\/[A-Za-z0-9_-]+|models|usage|usage\.csv|connect|users)$/.test(path)) return 'page';
  if (method === 'POST' && /^\/(sign-in|sign-out|register|keys|keys\/[A-Za-z0-9_-]+|keys\/[A-Za-z0-9_-]+\/revoke|users\/invite)$/.test(path)) return 'form';
  return undefined;
}

async function startVisit(req: HttpRequest, res: ServerResponse, db: StorageDb, path: string, query: URLSearchParams, options: ResolvedConsoleOptions, secret: Buffer): Promise<Visit> {
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
    ctx: { base, user, csrf: csrfToken(secret, binding) },
  };
}

/** A form must come from a page of this origin: `Origin` (or else `Referer`), when the browser sends one, must match. */
function sameOrigin(req: HttpRequest, origin: string): boolean {
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

const cookiePathOf = (visit: Visit) => (visit.ctx.base === '' ? '/' : visit.ctx.base);

async function handleGet(visit: Visit, options: ResolvedConsoleOptions): Promise<void> {
  const { ctx, res, path, db, user, query } = visit;
  const canRegister = options.registration === 'open' || (await countUsers(db)) === 0;
  if (path === '/') return redirect(res, `${ctx.base}${user === undefined ? '/sign-in' : '/keys'}`, visit.cookies);
  if (path === '/sign-in') {
    if (user !== undefined) return redirect(res, `${ctx.base}/keys`, visit.cookies);
    return sendHtml(res, 200, signInPage(ctx, { canRegister, ...(query.has('signed-out') ? { info: 'You are signed out.' } : {}) }), visit.cookies);
  }
  if (path === '/register') {
    if (user !== undefined) return redirect(res, `${ctx.base}/keys`, visit.cookies);
    return showRegister(visit, options, query.get('invite') ?? undefined);
  }
  if (user === undefined) return redirect(res, `${ctx.base}/sign-in`, visit.cookies);
  if (path === '/keys') return sendHtml(res, 200, keysPage(ctx, await keysState(visit, options, query.has('revoked') ? { info: `Key ${query.get('revoked') ?? ''} is revoked: requests with it are refused from now on.` } : {})), visit.cookies);
  if (path.startsWith('/keys/')) {
    const key = await ownKey(visit, options, path.slice('/keys/'.length));
    if (key === undefined) return notFound(visit);
    return sendHtml(res, 200, keySettingsPage(ctx, key, modelIds(options), settingsOf(key)), visit.cookies);
  }
  if (path === '/models') return sendHtml(res, 200, modelsPage(ctx, options.models), visit.cookies);
  if (path === '/usage' || path === '/usage.csv') return showUsage(visit, options, path === '/usage.csv');
  if (path === '/connect') {
    const keys = (await visibleKeys(visit, options)).filter((key) => key.revokedAt === undefined);
    const chosen = keys.find((key) => key.publicId === query.get('key'));
    const apiRoot = options.apiRoot ?? visit.origin;
    return sendHtml(res, 200, connectPage(ctx, { apiRoot, keys, chosen, model: chosen?.models?.[0] ?? options.models[0]?.id ?? 'mock' }), visit.cookies);
  }
  if (path === '/users' && user.isAdmin) return sendHtml(res, 200, usersPage(ctx, await listUsers(db), options.registration), visit.cookies);
  return notFound(visit);
}

async function handlePost(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, throttle: LoginThrottle): Promise<void> {
  const { ctx, res, path, db, user } = visit;
  if (path === '/sign-in') return signIn(visit, form, options, throttle);
  if (path === '/register') return register(visit, form, options);
  if (path === '/sign-out') {
    if (visit.sessionToken !== undefined) await endSession(db, visit.sessionToken);
    return redirect(res, `${ctx.base}/sign-in?signed-out`, [...visit.cookies, serializeCookie(SESSION_COOKIE, '', { path: cookiePathOf(visit), secure: visit.secure, maxAgeSeconds: 0 })]);
  }
  if (user === undefined) return redirect(res, `${ctx.base}/sign-in`, visit.cookies);
  if (path === '/keys') return createKey(visit, form, options, user);
  const revoke = /^\/keys\/([A-Za-z0-9_-]+)\/revoke$/.exec(path);
  if (revoke !== null) {
    const key = await ownKey(visit, options, revoke[1] ?? '');
    if (key === undefined) return notFound(visit);
    await options.keys.revoke(key.publicId);
    return redirect(res, `${ctx.base}/keys?revoked=${key.publicId}`, visit.cookies);
  }
  if (path.startsWith('/keys/')) return changeKey(visit, form, options, path.slice('/keys/'.length));
  if (path === '/users/invite' && user.isAdmin && options.registration === 'invite') {
    const token = await createInvite(db, user.id);
    const link = `${visit.origin}${ctx.base}/register?invite=${token}`;
    return sendHtml(res, 200, usersPage(ctx, await listUsers(db), options.registration, link), visit.cookies);
  }
  return notFound(visit);
}

function notFound(visit: Visit): void {
  sendHtml(visit.res, 404, layout(visit.ctx, 'Not found', 'none', html`<p>There is nothing here. <a href="${visit.ctx.base}/keys">Your keys</a></p>`), visit.cookies);
}

const modelIds = (options: ResolvedConsoleOptions) => options.models.map((model) => model.id);

async function signIn(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, throttle: LoginThrottle): Promise<void> {
  const { ctx, res, db } = visit;
  const email = (form.get('email') ?? '').trim().toLowerCase().slice(0, 254);
  const password = (form.get('password') ?? '').slice(0, PASSWORD_MAX);
  const canRegister = options.registration === 'open';
  const address = clientAddress(visit.req, options.trustProxy);
  const wait = await throttle.retryAfterMs(email, address);
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60_000);
    res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
    return sendHtml(res, 429, signInPage(ctx, { email, canRegister, error: `Too many failed sign-ins (code LOGIN_RATE_LIMITED). Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }), visit.cookies);
  }
  const found = await findUserByEmail(db, email);
  if (!(await verifyPassword(found?.passwordHash, password)) || found === undefined) {
    await throttle.failed(email, address);
    return sendHtml(res, 401, signInPage(ctx, { email, canRegister, error: 'Wrong e-mail or password.' }), visit.cookies);
  }
  await throttle.succeeded(email);
  return signedIn(visit, found.user.id, options);
}

/** A new session (a new cookie value: one from before sign-in is never reused) and on to the keys. */
async function signedIn(visit: Visit, userId: string, options: ResolvedConsoleOptions): Promise<void> {
  const token = await startSession(visit.db, userId, options.sessionTtlMs);
  const cookie = serializeCookie(SESSION_COOKIE, token, { path: cookiePathOf(visit), secure: visit.secure, maxAgeSeconds: Math.floor(options.sessionTtlMs / 1000) });
  redirect(visit.res, `${visit.ctx.base}/keys`, [...visit.cookies, cookie]);
}

/** Who may register now: anyone while there is no user; then as `registration` says. */
async function registrationAllows(db: StorageDb, options: ResolvedConsoleOptions, invite: string | undefined): Promise<{ ok: boolean; first: boolean }> {
  if ((await countUsers(db)) === 0) return { ok: true, first: true };
  if (options.registration === 'open') return { ok: true, first: false };
  if (options.registration === 'invite' && invite !== undefined) return { ok: await inviteIsValid(db, invite), first: false };
  return { ok: false, first: false };
}

async function showRegister(visit: Visit, options: ResolvedConsoleOptions, invite: string | undefined, email?: string, error?: string): Promise<void> {
  const allowed = await registrationAllows(visit.db, options, invite);
  if (!allowed.ok) return sendHtml(visit.res, 403, registrationClosedPage(visit.ctx, options.registration === 'closed' ? 'closed' : 'invite'), visit.cookies);
  const state = { first: allowed.first, ...(invite === undefined ? {} : { invite }), ...(email === undefined ? {} : { email }), ...(error === undefined ? {} : { error }) };
  return sendHtml(visit.res, error === undefined ? 200 : 400, registerPage(visit.ctx, state), visit.cookies);
}

async function register(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions): Promise<void> {
  const { db } = visit;
  const invite = form.get('invite') ?? undefined;
  const email = (form.get('email') ?? '').trim().toLowerCase();
  const password = form.get('password') ?? '';
  const allowed = await registrationAllows(db, options, invite);
  if (!allowed.ok) return showRegister(visit, options, invite);
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) return showRegister(visit, options, invite, email, 'Enter an e-mail address, like name@example.com.');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return showRegister(visit, options, invite, email, `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`);
  }
  const created = await createUser(db, { email, passwordHash: await hashPassword(password), isAdmin: allowed.first || options.admins.has(email) });
  if (created === undefined) return showRegister(visit, options, invite, email, 'There is already an account with this e-mail address: sign in instead.');
  if (!allowed.first && options.registration === 'invite' && invite !== undefined) await useInvite(db, invite);
  options.logger.info({ userId: created.id, admin: created.isAdmin }, 'switchyard: console user registered');
  return signedIn(visit, created.id, options);
}

/** The keys a user sees: all of them for an admin, else their own. */
async function visibleKeys(visit: Visit, options: ResolvedConsoleOptions): Promise<StoredKey[]> {
  const all = await options.keys.list();
  if (visit.user?.isAdmin) return all;
  const owners = await keyOwners(visit.db);
  return all.filter((key) => owners.get(key.publicId) === visit.user?.id);
}

/** A key this user may manage (an admin: any); undefined otherwise, or when revoked. */
async function ownKey(visit: Visit, options: ResolvedConsoleOptions, publicId: string): Promise<StoredKey | undefined> {
  const key = await options.keys.get(publicId);
  if (key === undefined || key.revokedAt !== undefined) return undefined;
  if (visit.user?.isAdmin) return key;
  return (await ownerOf(visit.db, publicId)) === visit.user?.id ? key : undefined;
}

async function keysState(visit: Visit, options: ResolvedConsoleOptions, extra: Partial<KeysPageState>): Promise<KeysPageState> {
  const keys = await visibleKeys(visit, options);
  const spent = await spendByKey(visit.db);
  const owners = visit.user?.isAdmin ? await keyOwners(visit.db) : new Map<string, string>();
  const emails = visit.user?.isAdmin ? new Map((await listUsers(visit.db)).map((user) => [user.id, user.email])) : new Map<string, string>();
  const rows = keys
    .map((key) => {
      const owner = owners.get(key.publicId);
      return { key, ownerEmail: owner === undefined ? undefined : emails.get(owner), spentNanoUsd: spent.get(key.publicId) ?? 0 };
    })
    // Live keys first, newest first.
    .sort((a, b) => Number(a.key.revokedAt !== undefined) - Number(b.key.revokedAt !== undefined) || b.key.createdAt - a.key.createdAt);
  return { rows, models: modelIds(options), now: Date.now(), ...extra };
}

/** What a user (not an admin) starts from: the `userKeys` ceiling, or nothing set. */
function userCeiling(options: ResolvedConsoleOptions): KeySettings {
  const ceiling = options.userKeys;
  return {
    models: ceiling?.models ?? null,
    expiresAt: null,
    budget: ceiling?.budget === undefined ? null : { nanoUsd: Math.round(ceiling.budget.usd * 1e9), period: ceiling.budget.period },
    limits: ceiling?.limits === undefined || Object.keys(ceiling.limits).length === 0 ? null : ceiling.limits,
  };
}

/** A user's empty fields take the ceiling's values, so leaving a field empty never widens. */
function withCeiling(wanted: KeySettings, ceiling: KeySettings): KeySettings {
  return {
    models: wanted.models ?? ceiling.models,
    expiresAt: wanted.expiresAt ?? ceiling.expiresAt,
    budget: wanted.budget ?? ceiling.budget,
    limits: ceiling.limits === null && wanted.limits === null ? null : { ...ceiling.limits, ...wanted.limits },
  };
}

async function createKey(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, user: ConsoleUser): Promise<void> {
  const name = (form.get('name') ?? '').trim();
  const parsed = parseKeySettings(form, modelIds(options));
  const refuse = async (error: string) => sendHtml(visit.res, 400, keysPage(visit.ctx, await keysState(visit, options, { error })), visit.cookies);
  if (name === '' || name.length > 100) return refuse('Give the key a name (up to 100 characters), e.g. what will use it.');
  if (typeof parsed === 'string') return refuse(parsed);
  let settings = parsed;
  if (!user.isAdmin) {
    const ceiling = userCeiling(options);
    settings = withCeiling(parsed, ceiling);
    const error = narrowingError(ceiling, settings);
    if (error !== undefined) return refuse(error);
  }
  const created = await options.keys.create({
    name,
    ...(settings.models === null ? {} : { models: settings.models }),
    ...(settings.expiresAt === null ? {} : { expiresAt: settings.expiresAt }),
    ...(settings.budget === null ? {} : { budget: settings.budget }),
    ...(settings.limits === null ? {} : { limits: settings.limits }),
  });
  await setKeyOwner(visit.db, created.stored.publicId, user.id);
  // The page with the key is the answer to the POST itself: the key never sits in a URL or a cache.
  return sendHtml(visit.res, 201, keysPage(visit.ctx, await keysState(visit, options, { created: { key: created.key, publicId: created.stored.publicId } })), visit.cookies);
}

async function changeKey(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, publicId: string): Promise<void> {
  const key = await ownKey(visit, options, publicId);
  if (key === undefined) return notFound(visit);
  const name = (form.get('name') ?? '').trim();
  const parsed = parseKeySettings(form, modelIds(options));
  const current = settingsOf(key);
  const refuse = (error: string) => sendHtml(visit.res, 400, keySettingsPage(visit.ctx, key, modelIds(options), typeof parsed === 'string' ? current : parsed, error), visit.cookies);
  if (name === '' || name.length > 100) return refuse('Give the key a name (up to 100 characters).');
  if (typeof parsed === 'string') return refuse(parsed);
  if (visit.user?.isAdmin !== true) {
    const error = narrowingError(current, parsed);
    if (error !== undefined) return refuse(error);
  }
  await options.keys.update(publicId, { name, ...parsed });
  return redirect(visit.res, `${visit.ctx.base}/keys`, visit.cookies);
}

async function showUsage(visit: Visit, options: ResolvedConsoleOptions, csv: boolean): Promise<void> {
  const { query, db, user } = visit;
  const today = isoDay(Date.now());
  let to = query.get('to') ?? today;
  let from = query.get('from') ?? isoDay(Date.now() - 13 * DAY_MS);
  let error: string | undefined;
  const valid = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`));
  if (!valid(from) || !valid(to) || from > to) {
    error = 'The range needs two dates (YYYY-MM-DD), the first not after the second; showing the last 14 days.';
    to = today;
    from = isoDay(Date.now() - 13 * DAY_MS);
  }
  let start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  if ((end - start) / DAY_MS > MAX_RANGE_DAYS) {
    start = end - MAX_RANGE_DAYS * DAY_MS;
    from = isoDay(start);
    error = `A range is at most ${MAX_RANGE_DAYS} days; showing the last ${MAX_RANGE_DAYS} up to ${to}.`;
  }
  const rows = await usageReport(db, { from: start, to: end, ...(user?.isAdmin ? {} : { ownerId: user?.id ?? '' }) });
  const keyNames = new Map((await options.keys.list()).map((key) => [key.publicId, key.name]));
  if (csv) {
    return sendText(visit.res, 200, 'text/csv; charset=utf-8', usageCsv(rows, keyNames), { 'Content-Disposition': `attachment; filename="switchyard-usage-${from}-to-${to}.csv"` });
  }
  const days: string[] = [];
  for (let day = start; day < end; day += DAY_MS) days.push(isoDay(day));
  const metric = query.get('metric');
  const chart = metric === 'tokens' || metric === 'cost' ? metric : 'requests';
  return sendHtml(visit.res, 200, usagePage(visit.ctx, { rows, days, from, to, metric: chart, keyNames, ...(error === undefined ? {} : { error }) }), visit.cookies);
}
