import { BUDGET_MAX_USD, budgetUsdProblem, KEY_NAME_MAX } from '../access/key-bounds.js';
import type { BudgetPeriod, KeyOwnLimits } from '../access/stored-keys.js';
import type { UsageGrouping } from '../usage/usage-queries.js';
import { DAY_MS, dayOf, REPORT_PROVIDERS, type ReportProvider } from '../reconcile/provider-report.js';
import { DEFAULT_THRESHOLD_PERCENT } from '../reconcile/reconcile.js';
import { allowOnly, flagError, type CliFlags } from './cli-flags.js';

/** Where a store command finds the database: the same settings `serve` reads. */
export interface StoreFlags {
  configPath?: string;
  database?: string;
}

export type StoreCommand =
  | {
      command: 'keys-create';
      store: StoreFlags;
      name: string;
      models?: string[];
      expiresAt?: number;
      budget?: { nanoUsd: number; period: BudgetPeriod };
      limits?: KeyOwnLimits;
      json: boolean;
    }
  | { command: 'keys-list'; store: StoreFlags; json: boolean }
  | { command: 'keys-revoke'; store: StoreFlags; publicId: string }
  | { command: 'keys-unpause'; store: StoreFlags; publicId: string }
  | { command: 'usage'; store: StoreFlags; by: UsageGrouping; from?: number; to?: number; keyId?: string; model?: string; json: boolean }
  | { command: 'migrate'; store: StoreFlags }
  | { command: 'reconcile'; store: StoreFlags; provider: ReportProvider; from: string; to: string; threshold: number; json: boolean }
  | { command: 'users-reset-password'; store: StoreFlags; email: string }
  | {
      command: 'accounts-top-up';
      store: StoreFlags;
      email: string;
      usd: string;
      kind: 'top-up' | 'refund' | 'adjustment';
      note: string | undefined;
    }
  | { command: 'accounts-credit-limit'; store: StoreFlags; email: string; usd: string };

const storeFlags = ['config', 'database'];
const durationUnits: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30d`, `12h`, `90m` from now, or a date (`2027-01-31`, UTC midnight) or date-time. */
export function parseExpiry(text: string, now = Date.now()): number {
  const duration = /^(\d+)([mhd])$/.exec(text);
  if (duration) return now + Number(duration[1]) * (durationUnits[duration[2] ?? 'd'] ?? 0);
  const at = parseDate(text, '--expires');
  if (at <= now) throw flagError(`--expires must be in the future; got '${text}'.`);
  return at;
}

function parseDate(text: string, flag: string): number {
  const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text) : Number.NaN;
  if (Number.isNaN(at)) throw flagError(`${flag} takes a date like 2027-01-31 (or a duration like 30d for --expires); got '${text}'.`);
  return at;
}

/** US dollars, e.g. `25` or `0.50`, as nano-USD. */
function parseBudget(text: string): number {
  if (!/^\d+(\.\d{1,9})?$/.test(text) || budgetUsdProblem(Number(text), 'positive') !== undefined) {
    throw flagError(`--budget takes an amount in US dollars, more than 0 to ${BUDGET_MAX_USD}, e.g. --budget 25; got '${text}'.`);
  }
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 1e9 + Number(fraction.padEnd(9, '0'));
}

function storeOf(values: CliFlags): StoreFlags {
  return {
    ...(values.config === undefined ? {} : { configPath: values.config }),
    ...(values.database === undefined ? {} : { database: values.database }),
  };
}

/** A positive whole number given to a limit flag. */
function parseLimit(flag: string, text: string): number {
  if (!/^[1-9]\d*$/.test(text)) throw flagError(`--${flag} takes a positive whole number, e.g. --${flag} 60; got '${text}'.`);
  return Number(text);
}

/** `--rpm`, `--tpm`, `--concurrency`: the key's own limits. */
function limitsOf(values: CliFlags): { limits?: KeyOwnLimits } {
  const limits: KeyOwnLimits = {};
  if (values.rpm !== undefined) limits.requestsPerMinute = parseLimit('rpm', values.rpm);
  if (values.tpm !== undefined) limits.tokensPerMinute = parseLimit('tpm', values.tpm);
  if (values.concurrency !== undefined) limits.concurrency = parseLimit('concurrency', values.concurrency);
  return Object.keys(limits).length === 0 ? {} : { limits };
}

function parseKeys(action: string | undefined, rest: readonly string[], values: CliFlags): StoreCommand {
  const json = values.json === true;
  if (action === 'create' && rest.length === 0) {
    allowOnly(
      values,
      new Set([...storeFlags, 'name', 'models', 'expires', 'budget', 'budget-period', 'rpm', 'tpm', 'concurrency', 'json']),
      'keys create',
    );
    const name = values.name?.trim();
    if (!name) throw flagError("'keys create' needs --name, e.g. --name ci-bot: the key's owner, shown in lists and logs.");
    if (name.length > KEY_NAME_MAX) throw flagError(`--name is at most ${KEY_NAME_MAX} characters (got ${name.length}).`);
    const period = values['budget-period'] ?? 'month';
    if (period !== 'day' && period !== 'month' && period !== 'never')
      throw flagError(`--budget-period is day, month or never; got '${period}'.`);
    if (values['budget-period'] !== undefined && values.budget === undefined) throw flagError('--budget-period needs --budget.');
    const models = values.models
      ?.split(',')
      .map((model) => model.trim())
      .filter((model) => model !== '');
    return {
      command: 'keys-create',
      store: storeOf(values),
      name,
      ...(models === undefined ? {} : { models }),
      ...(values.expires === undefined ? {} : { expiresAt: parseExpiry(values.expires) }),
      ...(values.budget === undefined ? {} : { budget: { nanoUsd: parseBudget(values.budget), period } }),
      ...limitsOf(values),
      json,
    };
  }
  if (action === 'list' && rest.length === 0) {
    allowOnly(values, new Set([...storeFlags, 'json']), 'keys list');
    return { command: 'keys-list', store: storeOf(values), json };
  }
  if (action === 'revoke' && rest.length === 1) {
    allowOnly(values, new Set(storeFlags), 'keys revoke');
    return { command: 'keys-revoke', store: storeOf(values), publicId: rest[0] ?? '' };
  }
  if (action === 'unpause' && rest.length === 1) {
    allowOnly(values, new Set(storeFlags), 'keys unpause');
    return { command: 'keys-unpause', store: storeOf(values), publicId: rest[0] ?? '' };
  }
  throw flagError(
    action === 'revoke' || action === 'unpause'
      ? `'keys ${action}' takes the key's public id, e.g. switchyard keys ${action} AbCd…`
      : `Unknown command 'keys ${[action, ...rest].join(' ').trim()}'.`,
  );
}

/** `users reset-password EMAIL`. */
function parseUsers(action: string | undefined, rest: readonly string[], values: CliFlags): StoreCommand {
  if (action === 'reset-password' && rest.length === 1 && rest[0]?.includes('@')) {
    allowOnly(values, new Set(storeFlags), 'users reset-password');
    return { command: 'users-reset-password', store: storeOf(values), email: rest[0] };
  }
  throw flagError(
    action === 'reset-password'
      ? "'users reset-password' takes the account's e-mail address, e.g. switchyard users reset-password ada@example.com"
      : `Unknown command 'users ${[action, ...rest].join(' ').trim()}'; did you mean 'users reset-password EMAIL'?`,
  );
}

/** Longest range `reconcile` reads: a year of daily buckets. */
const RECONCILE_MAX_DAYS = 366;

/** A UTC day given to `reconcile` (`2026-11-27`). */
function parseDay(text: string, flag: string): string {
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
    Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ||
    dayOf(Date.parse(`${text}T00:00:00Z`)) !== text
  ) {
    throw flagError(`${flag} takes a UTC day like 2026-11-01; got '${text}'.`);
  }
  return text;
}

/** `reconcile --provider openai|anthropic --from DAY [--to DAY] [--threshold PERCENT] [--json]`: both days included. */
function parseReconcile(values: CliFlags): StoreCommand {
  allowOnly(values, new Set([...storeFlags, 'provider', 'from', 'to', 'threshold', 'json']), 'reconcile');
  const provider = values.provider;
  if (provider === undefined || !(REPORT_PROVIDERS as readonly string[]).includes(provider)) {
    throw flagError(`'reconcile' needs --provider ${REPORT_PROVIDERS.join(' or ')}${provider === undefined ? '' : `; got '${provider}'`}.`);
  }
  if (values.from === undefined)
    throw flagError("'reconcile' needs --from, the first UTC day to compare, e.g. --from 2026-11-01 (--to defaults to today).");
  const from = parseDay(values.from, '--from');
  const to = values.to === undefined ? dayOf(Date.now()) : parseDay(values.to, '--to');
  if (from > to) throw flagError(`--from (${from}) is after --to (${to}).`);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > RECONCILE_MAX_DAYS)
    throw flagError(`'reconcile' compares at most ${RECONCILE_MAX_DAYS} days at once; got ${from} to ${to}.`);
  const threshold = values.threshold === undefined ? DEFAULT_THRESHOLD_PERCENT : Number(values.threshold.replace(/%$/, ''));
  if (values.threshold !== undefined && (!/^\d+(\.\d+)?%?$/.test(values.threshold) || !Number.isFinite(threshold))) {
    throw flagError(`--threshold takes a percentage, e.g. --threshold 1 or --threshold 0.5%; got '${values.threshold}'.`);
  }
  return {
    command: 'reconcile',
    store: storeOf(values),
    provider: provider as ReportProvider,
    from,
    to,
    threshold,
    json: values.json === true,
  };
}

/** `accounts top-up EMAIL --usd AMOUNT [--kind …] [--note …]`, `accounts credit-limit EMAIL --usd AMOUNT`. */
function parseAccounts(action: string | undefined, rest: readonly string[], values: CliFlags): StoreCommand {
  if (action === 'credit-limit' && rest.length === 1 && rest[0]?.includes('@') === true) {
    allowOnly(values, new Set([...storeFlags, 'usd']), 'accounts credit-limit');
    if (values.usd === undefined) throw flagError("'accounts credit-limit' needs --usd, e.g. --usd 50 (0: no credit limit).");
    return { command: 'accounts-credit-limit', store: storeOf(values), email: rest[0], usd: values.usd };
  }
  if (action === 'top-up' && rest.length === 1 && rest[0]?.includes('@') === true) {
    allowOnly(values, new Set([...storeFlags, 'usd', 'kind', 'note']), 'accounts top-up');
    if (values.usd === undefined) throw flagError("'accounts top-up' needs --usd, e.g. --usd 20.");
    const kind = values.kind ?? 'top-up';
    if (kind !== 'top-up' && kind !== 'refund' && kind !== 'adjustment')
      throw flagError(`--kind is top-up, refund or adjustment; got '${kind}'.`);
    return {
      command: 'accounts-top-up',
      store: storeOf(values),
      email: rest[0],
      usd: values.usd,
      kind,
      note: values.note?.trim() || undefined,
    };
  }
  throw flagError(
    `Unknown command 'accounts ${[action, ...rest].join(' ').trim()}'; did you mean 'accounts top-up EMAIL --usd AMOUNT' or 'accounts credit-limit EMAIL --usd AMOUNT'?`,
  );
}

/** `keys …`, `users …`, `accounts …`, `usage`, `reconcile` and `migrate`: the commands that work on the database. */
export function parseStoreFlags(
  command: 'keys' | 'users' | 'accounts' | 'usage' | 'migrate' | 'reconcile',
  positionals: readonly string[],
  values: CliFlags,
): StoreCommand {
  if (command === 'keys') return parseKeys(positionals[0], positionals.slice(1), values);
  if (command === 'accounts') return parseAccounts(positionals[0], positionals.slice(1), values);
  if (command === 'users') return parseUsers(positionals[0], positionals.slice(1), values);
  if (positionals.length > 0) throw flagError(`Unknown command '${[command, ...positionals].join(' ')}'.`);
  if (command === 'reconcile') return parseReconcile(values);
  if (command === 'migrate') {
    allowOnly(values, new Set(storeFlags), 'migrate');
    return { command: 'migrate', store: storeOf(values) };
  }
  allowOnly(values, new Set([...storeFlags, 'by', 'from', 'to', 'key', 'model', 'json']), 'usage');
  const by = values.by ?? 'day';
  if (by !== 'key' && by !== 'model' && by !== 'day') throw flagError(`--by is key, model or day; got '${by}'.`);
  return {
    command: 'usage',
    store: storeOf(values),
    by,
    ...(values.from === undefined ? {} : { from: parseDate(values.from, '--from') }),
    ...(values.to === undefined ? {} : { to: parseDate(values.to, '--to') }),
    ...(values.key === undefined ? {} : { keyId: values.key }),
    ...(values.model === undefined ? {} : { model: values.model }),
    json: values.json === true,
  };
}
