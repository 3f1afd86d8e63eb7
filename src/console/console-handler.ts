import type { IncomingMessage, ServerResponse } from 'node:http';
import { sharedSecret } from '../access/shared-secret.js';
import { configError } from '../canonical/index.js';
import { createHostCheck, sendHostNotAllowed } from '../http/allowed-hosts.js';
import { isApiRequest } from '../http/api-request.js';
import type { HttpRequest, Next } from '../http/types.js';
import { consoleLogger } from '../logger.js';
import type { StorageDb } from '../storage/schema.js';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.js';
import { register, showRegister, signIn } from './auth-routes.js';
import { signInPage } from './auth-pages.js';
import { FormTooLarge, readForm, redirect, sendHtml, sendText, serializeCookie } from './console-http.js';
import type { ConsoleOptions, RegistrationMode, ResolvedConsoleOptions } from './console-options.js';
import { connectPage } from './connect-page.js';
import { csrfTokenMatches } from './csrf.js';
import { html } from './html.js';
import { createInvite } from './invites.js';
import { changeKey, createKey, keyActivity, keysState, liftKeyPause, ownKey, visibleKeys } from './key-routes.js';
import { settingsOf } from './key-settings.js';
import { keySettingsPage, keysPage } from './keys-pages.js';
import { layout } from './layout.js';
import { LoginThrottle } from './login-limits.js';
import { modelsPage } from './models-page.js';
import { endSession } from './sessions.js';
import { showUsage } from './usage-routes.js';
import { showReconcile } from './reconcile-routes.js';
import { countUsers } from './users.js';
import { auditPage } from './audit-page.js';
import { recentAdminActions, recordAdminAction } from './audit-log.js';
import { resetPassword, showResetPassword } from './reset-password.js';
import { actOnUser, showUsers, USER_ACTIONS } from './user-admin-routes.js';
import { createCodeBatch, redeem, setAccountCreditLimit, showBalance, showCodes, topUpUser } from './money-routes.js';
import { cookiePathOf, modelIds, notFound, sameOrigin, SESSION_COOKIE, startVisit, type Visit } from './visitor-session.js';

/** The console as a request handler: Express middleware at any mount path, or a `node:http` handler. */
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse, next?: Next) => void;

const DAY_MS = 86_400_000;
const REGISTRATION_MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

function resolveConsoleOptions(options: ConsoleOptions): ResolvedConsoleOptions {
  const { keys, storage, models } = options.gateway;
  if (keys === undefined || storage === undefined) {
    throw configError(
      'CONFIG_CONSOLE_NEEDS_DATABASE',
      'The console keeps users, sessions and keys in the gateway’s database: create the gateway with gateway({ database: … }).',
    );
  }
  const registration = options.registration ?? 'open';
  if (!REGISTRATION_MODES.includes(registration)) {
    throw configError(
      'CONFIG_CONSOLE_INVALID',
      `console registration must be 'open', 'invite' or 'closed' (got '${String(registration)}').`,
    );
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/'))
    throw configError('CONFIG_CONSOLE_INVALID', `console basePath must start with / (got '${basePath}'), e.g. '/console'.`);
  if (options.apiRoot !== undefined && !/^https?:\/\/[^/]/.test(options.apiRoot)) {
    throw configError(
      'CONFIG_CONSOLE_INVALID',
      `console apiRoot must be an http(s) URL (got '${options.apiRoot}'), e.g. 'https://llm.example.com'.`,
    );
  }
  const trustProxy = options.trustProxy ?? false;
  if (typeof trustProxy === 'number' && !(Number.isInteger(trustProxy) && trustProxy >= 0)) {
    throw configError('CONFIG_CONSOLE_INVALID', `console trustProxy must be true, false or a number of proxies (got ${trustProxy}).`);
  }
  return {
    keys,
    db: storage,
    models,
    registration,
    admins: new Set((options.admins ?? []).map((email) => email.trim().toLowerCase())),
    secureCookies: options.secureCookies ?? 'auto',
    trustProxy: trustProxy !== false && trustProxy !== 0,
    proxyHops: trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy,
    sessionTtlMs: options.sessionTtlMs ?? 7 * DAY_MS,
    loginLimits: { perAccount: 5, perAddress: 50, windowMs: 15 * 60_000, ...options.loginLimits },
    apiRoot: options.apiRoot?.replace(/\/+$/, ''),
    basePath,
    hostAllowed: createHostCheck(options.allowedHosts ?? true),
    userKeys: options.userKeys,
    reportSources: options.reportSources ?? [],
    balances: options.gateway.balances,
    chargeAdmins: options.gateway.balances?.chargesAdmins === true,
    logger: options.logger ?? consoleLogger,
  };
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
    const within =
      prefix === ''
        ? url.pathname
        : url.pathname === prefix
          ? '/'
          : url.pathname.startsWith(`${prefix}/`)
            ? url.pathname.slice(prefix.length)
            : undefined;
    const path = within === undefined ? undefined : within.length > 1 ? within.replace(/\/$/, '') : within;
    const route = path === undefined ? undefined : routeOf(req.method ?? 'GET', path);
    // A client with the API root as its OpenAI base URL asks for `/models`, a console page: a request
    // that carries a key or asks for JSON goes on to the API, which explains the missing `/v1`.
    if (route === undefined || path === undefined || isApiRequest(req)) {
      if (next) next();
      else sendText(res, 404, 'text/plain; charset=utf-8', 'Not found.\n');
      return;
    }
    if (!resolved.hostAllowed(req.headers.host)) {
      sendHostNotAllowed(req, res, "the console's allowedHosts");
      return;
    }
    if (route === 'asset') {
      const css = path.endsWith('.css');
      sendText(res, 200, css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8', css ? CONSOLE_CSS : CONSOLE_JS, {
        'Cache-Control': 'public, max-age=3600',
      });
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
          sendHtml(
            res,
            403,
            layout(
              visit.ctx,
              'Form refused',
              'none',
              html`<p role="alert">This form expired or came from another site (code <code>CSRF_TOKEN_INVALID</code>). Go back, reload the page and try again.</p>`,
            ),
            visit.cookies,
          );
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
      sendText(res, 503, 'text/plain; charset=utf-8', 'The console cannot reach its database right now; try again in a moment.\n', {
        'Retry-After': '5',
      });
    });
  };
}

type Route = 'asset' | 'page' | 'form';

/** Which console paths exist, by method; undefined hands the request on (a host app's own routes, the API). */
function routeOf(method: string, path: string): Route | undefined {
  const get = method === 'GET' || method === 'HEAD';
  if (get && (path === '/assets/console.css' || path === '/assets/console.js')) return 'asset';
  if (
    get &&
    /^\/(|sign-in|register|reset-password|keys|keys\/[A-Za-z0-9_-]+|models|usage|usage\.csv|reconcile|balance|balance\.csv|codes|connect|users|audit)$/.test(
      path,
    )
  )
    return 'page';
  if (
    method === 'POST' &&
    /^\/(sign-in|sign-out|register|reset-password|keys|keys\/[A-Za-z0-9_-]+|keys\/[A-Za-z0-9_-]+\/revoke|keys\/[A-Za-z0-9_-]+\/unpause|users\/invite|users\/[A-Za-z0-9_-]+\/[a-z-]+|balance\/redeem|balance\/credit-limit|codes)$/.test(
      path,
    )
  )
    return 'form';
  return undefined;
}

async function handleGet(visit: Visit, options: ResolvedConsoleOptions): Promise<void> {
  const { ctx, res, path, db, user, query } = visit;
  const noUsers = user === undefined && (await countUsers(db)) === 0;
  const canRegister = options.registration === 'open' || noUsers;
  // A fresh install has no one to sign in: its first visitor is sent to register (as the admin).
  const signInPath = noUsers ? '/register' : '/sign-in';
  if (path === '/') return redirect(res, `${ctx.base}${user === undefined ? signInPath : '/keys'}`, visit.cookies);
  if (path === '/sign-in') {
    if (user !== undefined) return redirect(res, `${ctx.base}/keys`, visit.cookies);
    return sendHtml(
      res,
      200,
      signInPage(ctx, { canRegister, ...(query.has('signed-out') ? { info: 'You are signed out.' } : {}) }),
      visit.cookies,
    );
  }
  if (path === '/register') {
    if (user !== undefined) return redirect(res, `${ctx.base}/keys`, visit.cookies);
    return showRegister(visit, options, query.get('invite') ?? undefined);
  }
  if (path === '/reset-password') return showResetPassword(visit, query.get('token') ?? undefined);
  if (user === undefined) return redirect(res, `${ctx.base}${signInPath}`, visit.cookies);
  if (path === '/keys')
    return sendHtml(
      res,
      200,
      keysPage(
        ctx,
        await keysState(
          visit,
          options,
          query.has('revoked') ? { info: `Key ${query.get('revoked') ?? ''} is revoked: requests with it are refused from now on.` } : {},
        ),
      ),
      visit.cookies,
    );
  if (path.startsWith('/keys/')) {
    const key = await ownKey(visit, options, path.slice('/keys/'.length));
    if (key === undefined) return notFound(visit);
    return sendHtml(
      res,
      200,
      keySettingsPage(ctx, key, modelIds(options), settingsOf(key), undefined, await keyActivity(visit, key.publicId)),
      visit.cookies,
    );
  }
  if (path === '/models') return sendHtml(res, 200, modelsPage(ctx, options.models), visit.cookies);
  if (path === '/usage' || path === '/usage.csv') return showUsage(visit, options, path === '/usage.csv');
  if (path === '/connect') {
    const keys = (await visibleKeys(visit, options)).filter((key) => key.revokedAt === undefined);
    const chosen = keys.find((key) => key.publicId === query.get('key'));
    const apiRoot = options.apiRoot ?? visit.origin;
    return sendHtml(
      res,
      200,
      connectPage(ctx, { apiRoot, keys, chosen, model: chosen?.models?.[0] ?? options.models[0]?.id ?? 'mock' }),
      visit.cookies,
    );
  }
  if (path === '/users' && user.isAdmin) return showUsers(visit, options);
  if (path === '/reconcile' && user.isAdmin) return showReconcile(visit, options);
  if ((path === '/balance' || path === '/balance.csv') && options.balances !== undefined)
    return showBalance(visit, options, user, path === '/balance.csv');
  if (path === '/codes' && user.isAdmin && options.balances !== undefined) return showCodes(visit);
  if (path === '/audit' && user.isAdmin) return sendHtml(res, 200, auditPage(ctx, await recentAdminActions(db)), visit.cookies);
  return notFound(visit);
}

async function handlePost(visit: Visit, form: URLSearchParams, options: ResolvedConsoleOptions, throttle: LoginThrottle): Promise<void> {
  const { ctx, res, path, db, user } = visit;
  if (path === '/sign-in') return signIn(visit, form, options, throttle);
  if (path === '/register') return register(visit, form, options);
  if (path === '/reset-password') return resetPassword(visit, form);
  if (path === '/sign-out') {
    if (visit.sessionToken !== undefined) await endSession(db, visit.sessionToken);
    return redirect(res, `${ctx.base}/sign-in?signed-out`, [
      ...visit.cookies,
      serializeCookie(SESSION_COOKIE, '', { path: cookiePathOf(visit), secure: visit.secure, maxAgeSeconds: 0 }),
    ]);
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
  const unpause = /^\/keys\/([A-Za-z0-9_-]+)\/unpause$/.exec(path);
  if (unpause !== null && user.isAdmin) return liftKeyPause(visit, options, user, unpause[1] ?? '');
  if (path.startsWith('/keys/')) return changeKey(visit, form, options, path.slice('/keys/'.length));
  // Invitations in every mode: an address listed in `admins` registers only with one.
  if (path === '/users/invite' && user.isAdmin) {
    const token = await createInvite(db, user.id);
    await recordAdminAction(db, user, 'invite.created');
    return showUsers(visit, options, { link: { kind: 'invite', url: `${visit.origin}${ctx.base}/register?invite=${token}` } });
  }
  const { balances } = options;
  if (path === '/balance/redeem' && balances !== undefined) return redeem(visit, options, balances, user, form);
  if (path === '/balance/credit-limit' && user.isAdmin && balances !== undefined)
    return setAccountCreditLimit(visit, options, balances, user, form);
  if (path === '/codes' && user.isAdmin && balances !== undefined) return createCodeBatch(visit, user, form);
  const onUser = /^\/users\/([A-Za-z0-9_-]+)\/([a-z-]+)$/.exec(path);
  if (onUser?.[2] === 'top-up' && user.isAdmin && balances !== undefined)
    return topUpUser(visit, options, balances, user, onUser[1] ?? '', form);
  const action = USER_ACTIONS.find((known) => known === onUser?.[2]);
  if (onUser !== null && action !== undefined && user.isAdmin) return actOnUser(visit, options, user, onUser[1] ?? '', action);
  return notFound(visit);
}
