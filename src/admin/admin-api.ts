import { timingSafeEqual, createHash } from 'node:crypto';
import { GatewayError } from '../canonical/index.js';
import type { KeyService } from '../access/key-service.js';
import type { BudgetPeriod, NewKey } from '../access/stored-keys.js';
import { budgetUsdProblem, KEY_NAME_MAX } from '../access/key-bounds.js';
import { createJsonBodyReader } from '../http/read-json-body.js';
import { createRequestId } from '../http/request-id.js';
import { sendError, toGatewayError } from '../http/send-error.js';
import { sendJson } from '../http/send-json.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { InboundCodec } from '../protocols/codec.js';
import type { LedgerCounters } from '../usage/ledger-writer.js';
import type { UsageGrouping, UsageQuery, UsageTotals } from '../usage/usage-queries.js';

/** What the admin API works on: the gateway's stored keys and ledger. */
export interface AdminBackend {
  keys: KeyService;
  usage(query: UsageQuery): Promise<UsageTotals[]>;
  ledgerCounters(): LedgerCounters | undefined;
  /** Account balances, with `balances` on. */
  accounts?: AdminAccounts | undefined;
}

/** Balances as the admin API manages them: an account is named by its id or e-mail address. */
export interface AdminAccounts {
  /** Credits the account (a row of its balance ledger and of the audit log); the balance after, or undefined when there is no such account. */
  credit(
    ref: string,
    credit: { nanoUsd: number; kind: 'top-up' | 'refund' | 'adjustment'; note: string | undefined },
  ): Promise<{ id: string; email: string; balanceNanoUsd: number } | undefined>;
  balance(ref: string): Promise<{ id: string; email: string; balanceNanoUsd: number; creditLimitNanoUsd: number } | undefined>;
  /** Sets how far below zero the balance may go (0: not at all), with an audit row; undefined when there is no such account. */
  setCreditLimit(
    ref: string,
    nanoUsd: number,
  ): Promise<{ id: string; email: string; balanceNanoUsd: number; creditLimitNanoUsd: number } | undefined>;
}

function readCreditLimit(body: unknown): number {
  const usd = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).usd : undefined;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > 1_000_000)
    throw invalid('The body is { "usd": 50 }: how far below zero the balance may go, in dollars up to 1,000,000 (0: not at all).', 'usd');
  return Math.round(usd * 1e9);
}

function readCredit(body: unknown): Parameters<AdminAccounts['credit']>[1] {
  if (typeof body !== 'object' || body === null)
    throw invalid('The body must be a JSON object: { "usd": 20, "kind"?: "top-up", "note"?: "…" }.');
  const { usd, kind = 'top-up', note } = body as Record<string, unknown>;
  if (kind !== 'top-up' && kind !== 'refund' && kind !== 'adjustment') throw invalid("'kind' is top-up, refund or adjustment.", 'kind');
  const signed = kind === 'adjustment';
  if (typeof usd !== 'number' || !Number.isFinite(usd) || (signed ? usd === 0 : usd <= 0) || Math.abs(usd) > 1_000_000) {
    throw invalid(`'usd' must be a number of dollars${signed ? ', not 0,' : ' above 0'} up to 1,000,000.`, 'usd');
  }
  if (note !== undefined && (typeof note !== 'string' || note.length > 200))
    throw invalid("'note' is a string of at most 200 characters.", 'note');
  return { nanoUsd: Math.round(usd * 1e9), kind, note: typeof note === 'string' && note.trim() !== '' ? note.trim() : undefined };
}

export interface AdminApiOptions {
  /** The key that guards the admin API (not a gateway key). */
  adminKey: string;
  backend: AdminBackend;
  logger: Logger;
  /** How errors are shaped: the OpenAI codec, `{ error: { message, type, code } }`. */
  errors: InboundCodec;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

const invalid = (message: string, param?: string) =>
  new GatewayError({ code: 'ADMIN_REQUEST_INVALID', message, ...(param ? { param } : {}) });

function readNewKey(body: unknown): NewKey {
  if (typeof body !== 'object' || body === null) throw invalid('The body must be a JSON object: { "name": "…" }.');
  const { name, models, expires_at: expiresAt, budget, limits } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') throw invalid("'name' is required: who the key is for.", 'name');
  if (name.trim().length > KEY_NAME_MAX) throw invalid(`'name' is at most ${KEY_NAME_MAX} characters (got ${name.trim().length}).`, 'name');
  if (models !== undefined && (!Array.isArray(models) || !models.every((model) => typeof model === 'string')))
    throw invalid("'models' must be an array of model ids.", 'models');
  if (expiresAt !== undefined && (typeof expiresAt !== 'number' || expiresAt <= Date.now()))
    throw invalid("'expires_at' must be a future time in epoch milliseconds.", 'expires_at');
  let parsedBudget: NewKey['budget'];
  if (budget !== undefined) {
    const { usd, period = 'month' } = (budget ?? {}) as { usd?: unknown; period?: unknown };
    const problem = budgetUsdProblem(usd, 'positive');
    if (problem !== undefined || typeof usd !== 'number') throw invalid(`'budget.usd' ${problem ?? ''}.`, 'budget.usd');
    if (period !== 'day' && period !== 'month' && period !== 'never')
      throw invalid("'budget.period' is day, month or never.", 'budget.period');
    parsedBudget = { nanoUsd: Math.round(usd * 1e9), period: period as BudgetPeriod };
  }
  let parsedLimits: NewKey['limits'];
  if (limits !== undefined) {
    if (typeof limits !== 'object' || limits === null)
      throw invalid("'limits' is an object: { requests_per_minute?, tokens_per_minute?, concurrency? }.", 'limits');
    parsedLimits = {};
    const fields = { requests_per_minute: 'requestsPerMinute', tokens_per_minute: 'tokensPerMinute', concurrency: 'concurrency' } as const;
    for (const [field, value] of Object.entries(limits)) {
      const own = fields[field as keyof typeof fields];
      if (own === undefined)
        throw invalid(`'limits.${field}' is not a limit: use requests_per_minute, tokens_per_minute or concurrency.`, `limits.${field}`);
      if (!Number.isInteger(value) || (value as number) <= 0)
        throw invalid(`'limits.${field}' must be a positive whole number.`, `limits.${field}`);
      parsedLimits[own] = value as number;
    }
  }
  return {
    name: name.trim(),
    ...(parsedLimits === undefined ? {} : { limits: parsedLimits }),
    ...(models === undefined ? {} : { models: models as string[] }),
    ...(expiresAt === undefined ? {} : { expiresAt: expiresAt as number }),
    ...(parsedBudget === undefined ? {} : { budget: parsedBudget }),
  };
}

/** A path segment's text; a malformed percent-encoding (`%E0%A4%A`) is the caller's mistake, a 400. */
function decodePathSegment(segment: string, what: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(`The ${what} in the path is not valid percent-encoding (got '${segment.slice(0, 100)}').`);
  }
}

function readUsageQuery(search: URLSearchParams): UsageQuery {
  const by = search.get('by') ?? 'day';
  if (by !== 'key' && by !== 'model' && by !== 'day') throw invalid("'by' is key, model or day.", 'by');
  const time = (name: string) => {
    const text = search.get(name);
    if (text === null) return undefined;
    const at = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
    if (Number.isNaN(at)) throw invalid(`'${name}' is a date (2026-11-01) or epoch milliseconds.`, name);
    return at;
  };
  const since = time('from');
  const until = time('to');
  const key = search.get('key');
  const model = search.get('model');
  return {
    groupBy: by as UsageGrouping,
    ...(since === undefined ? {} : { from: since }),
    ...(until === undefined ? {} : { to: until }),
    ...(key === null ? {} : { keyId: key }),
    ...(model === null ? {} : { model }),
  };
}

/**
 * The admin HTTP API, under `/admin/` where the gateway is mounted, guarded by the admin key:
 * `POST /admin/keys`, `GET /admin/keys`, `DELETE /admin/keys/{public id}`, `GET /admin/usage`,
 * `GET /admin/ledger`. Returns false for paths it does not own.
 */
export function createAdminApi(options: AdminApiOptions): (req: HttpRequest, res: HttpResponse, path: string) => boolean {
  const expected = digest(options.adminKey);
  const readBody = createJsonBodyReader(64 * 1024);
  const { backend } = options;

  const authorize = (req: HttpRequest) => {
    const header = req.headers.authorization ?? '';
    const presented = header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
    if (presented === '' || !timingSafeEqual(digest(presented), expected)) {
      throw new GatewayError({
        code: 'INVALID_ADMIN_KEY',
        message: "The admin API needs 'Authorization: Bearer <admin key>' (the adminKey option; gateway keys are not accepted).",
      });
    }
  };

  const route = async (req: HttpRequest, res: HttpResponse, path: string, requestId: string) => {
    authorize(req);
    const method = req.method ?? 'GET';
    if (path === '/admin/keys' && method === 'POST') {
      const { key, stored } = await backend.keys.create(readNewKey(await readBody(req)));
      sendJson(res, 201, { key, ...stored }, requestId);
    } else if (path === '/admin/keys' && method === 'GET') {
      const spend = new Map((await backend.usage({ groupBy: 'key' })).map((totals) => [totals.group, totals]));
      const keys = await backend.keys.list();
      sendJson(res, 200, { data: keys.map((key) => ({ ...key, usage: spend.get(key.publicId) ?? null })) }, requestId);
    } else if (/^\/admin\/keys\/[^/]+\/unpause$/.test(path) && method === 'POST') {
      const publicId = decodePathSegment(path.slice('/admin/keys/'.length, -'/unpause'.length), 'public id');
      const key = await backend.keys.get(publicId);
      if (key === undefined || key.revokedAt !== undefined)
        throw new GatewayError({ code: 'KEY_NOT_FOUND', message: `No active stored key has the public id '${publicId}'.` });
      const lifted = await backend.keys.liftPause(publicId, { id: 'admin-api', email: 'admin API' });
      sendJson(res, 200, { publicId, paused: false, lifted }, requestId);
    } else if (path.startsWith('/admin/keys/') && method === 'DELETE') {
      const publicId = decodePathSegment(path.slice('/admin/keys/'.length), 'public id');
      if (!(await backend.keys.revoke(publicId))) {
        throw new GatewayError({ code: 'KEY_NOT_FOUND', message: `No active stored key has the public id '${publicId}'.` });
      }
      sendJson(res, 200, { publicId, revoked: true }, requestId);
    } else if (path === '/admin/usage' && method === 'GET') {
      const search = new URL(req.url ?? '/', 'http://gateway').searchParams;
      sendJson(res, 200, { data: await backend.usage(readUsageQuery(search)) }, requestId);
    } else if (path.startsWith('/admin/accounts/') && backend.accounts !== undefined) {
      const match = /^\/admin\/accounts\/([^/]+)\/(top-up|balance|credit-limit)$/.exec(path);
      const ref = match === null ? '' : decodePathSegment(match[1] ?? '', 'account');
      const found =
        match?.[2] === 'top-up' && method === 'POST'
          ? await backend.accounts.credit(ref, readCredit(await readBody(req)))
          : match?.[2] === 'balance' && method === 'GET'
            ? await backend.accounts.balance(ref)
            : match?.[2] === 'credit-limit' && method === 'POST'
              ? await backend.accounts.setCreditLimit(ref, readCreditLimit(await readBody(req)))
              : null;
      if (found === null)
        throw new GatewayError({
          kind: 'not_found',
          code: 'NOT_FOUND',
          message: `Nothing is served at ${method} ${path}: use POST /admin/accounts/{id or e-mail}/top-up, POST /admin/accounts/{id or e-mail}/credit-limit or GET /admin/accounts/{id or e-mail}/balance.`,
        });
      if (found === undefined)
        throw new GatewayError({ code: 'ACCOUNT_NOT_FOUND', message: `No console account has the id or e-mail address '${ref}'.` });
      sendJson(res, match?.[2] === 'top-up' ? 201 : 200, found, requestId);
    } else if (path === '/admin/ledger' && method === 'GET') {
      sendJson(res, 200, backend.ledgerCounters() ?? { written: 0, waiting: 0, failedWrites: 0, enabled: false }, requestId);
    } else {
      throw new GatewayError({
        code: 'NOT_FOUND',
        message: `Nothing is served at ${method} ${path}. The admin API has /admin/keys, /admin/keys/{id}, /admin/usage and /admin/ledger.`,
      });
    }
  };

  return (req, res, path) => {
    if (path !== '/admin' && !path.startsWith('/admin/')) return false;
    const requestId = createRequestId();
    route(req, res, path, requestId).catch((error: unknown) => {
      const gatewayError = toGatewayError(error, options.logger, requestId);
      if (res.headersSent) res.end();
      else sendError(res, options.errors, gatewayError, requestId);
    });
    return true;
  };
}
