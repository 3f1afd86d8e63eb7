import { budgetUsdProblem } from '../access/key-bounds.js';
import type { BudgetPeriod, KeyOwnLimits, StoredKey } from '../access/stored-keys.js';

/** A key's settings as the console sets them; `null`: none (every model, no expiry, no budget, the gateway's default limits). */
export interface KeySettings {
  models: readonly string[] | null;
  expiresAt: number | null;
  budget: { nanoUsd: number; period: BudgetPeriod } | null;
  limits: KeyOwnLimits | null;
}

const DAY_MS = 86_400_000;
const LIMIT_FIELDS = ['requestsPerMinute', 'tokensPerMinute', 'concurrency'] as const;
/** Form field of each limit. */
export const LIMIT_INPUTS: Record<(typeof LIMIT_FIELDS)[number], { name: string; label: string }> = {
  requestsPerMinute: { name: 'rpm', label: 'Requests per minute' },
  tokensPerMinute: { name: 'tpm', label: 'Tokens per minute' },
  concurrency: { name: 'concurrency', label: 'Requests at once' },
};

export const settingsOf = (key: StoredKey): KeySettings => ({
  models: key.models ?? null,
  expiresAt: key.expiresAt ?? null,
  budget: key.budget ?? null,
  limits: key.limits === undefined || Object.keys(key.limits).length === 0 ? null : key.limits,
});

/** The settings a form asks for, or a sentence saying what is wrong with it. */
export function parseKeySettings(form: URLSearchParams, knownModels: readonly string[], now = Date.now()): KeySettings | string {
  const models = form.getAll('models');
  const unknown = models.find((model) => !knownModels.includes(model));
  if (unknown !== undefined) return `There is no model '${unknown}'.`;

  let expiresAt: number | null = null;
  const expires = form.get('expires')?.trim() ?? '';
  if (expires !== '') {
    const start = /^\d{4}-\d{2}-\d{2}$/.test(expires) ? Date.parse(`${expires}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(start)) return 'The expiry date must be a date (YYYY-MM-DD).';
    expiresAt = start + DAY_MS; // the end of that day, UTC
    if (expiresAt <= now) return 'The expiry date is in the past.';
  }

  let budget: KeySettings['budget'] = null;
  const budgetUsd = form.get('budget_usd')?.trim() ?? '';
  if (budgetUsd !== '') {
    const usd = Number(budgetUsd);
    const problem = budgetUsdProblem(usd, 'zero');
    if (problem !== undefined) return `The budget ${problem}.`;
    const period = form.get('budget_period') ?? 'month';
    if (period !== 'day' && period !== 'month' && period !== 'never') return 'The budget period must be day, month or never.';
    budget = { nanoUsd: Math.round(usd * 1e9), period };
  }

  const limits: KeyOwnLimits = {};
  for (const field of LIMIT_FIELDS) {
    const raw = form.get(LIMIT_INPUTS[field].name)?.trim() ?? '';
    if (raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) return `${LIMIT_INPUTS[field].label} must be a whole number, 1 or more.`;
    limits[field] = value;
  }
  return { models: models.length === 0 ? null : models, expiresAt, budget, limits: Object.keys(limits).length === 0 ? null : limits };
}

/**
 * Whether a user (not an admin) may go from `ceiling` to `wanted`: users only narrow. They may drop
 * models, bring the expiry forward, lower a budget or a limit, and add any of these where none is
 * set; widening is for admins. Returns a sentence saying what is not allowed, or undefined.
 */
export function narrowingError(ceiling: KeySettings, wanted: KeySettings): string | undefined {
  if (ceiling.models !== null && (wanted.models === null || wanted.models.some((model) => !ceiling.models?.includes(model)))) {
    return `Only an admin can allow more models on this key (allowed now: ${ceiling.models.join(', ')}).`;
  }
  if (ceiling.expiresAt !== null && (wanted.expiresAt === null || wanted.expiresAt > ceiling.expiresAt)) {
    return 'Only an admin can extend or remove this key’s expiry.';
  }
  if (
    ceiling.budget !== null &&
    (wanted.budget === null || wanted.budget.period !== ceiling.budget.period || wanted.budget.nanoUsd > ceiling.budget.nanoUsd)
  ) {
    return 'Only an admin can raise, remove or re-period this key’s budget.';
  }
  for (const field of LIMIT_FIELDS) {
    const most = ceiling.limits?.[field];
    const asked = wanted.limits?.[field];
    if (most !== undefined && (asked === undefined || asked > most))
      return `Only an admin can raise or remove this key’s limit: ${LIMIT_INPUTS[field].label.toLowerCase()}.`;
  }
  return undefined;
}
