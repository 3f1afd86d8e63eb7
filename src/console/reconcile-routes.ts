import { GatewayError } from '../canonical/index.js';
import { DEFAULT_THRESHOLD_PERCENT, reconcile } from '../reconcile/reconcile.js';
import { REPORT_PROVIDERS } from '../reconcile/provider-report.js';
import { sendHtml } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { isoDay } from './format.js';
import { reconcilePage, type ReconcilePageState } from './reconcile-page.js';
import type { Visit } from './visitor-session.js';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

const validDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && isoDay(Date.parse(`${day}T00:00:00Z`)) === day;

/**
 * The reconciliation page (admins only): the form, and — once a provider is chosen — its usage
 * report against the ledger. The report is read only when asked for, never on a bare visit.
 */
export async function showReconcile(visit: Visit, options: ResolvedConsoleOptions): Promise<void> {
  const { query, db } = visit;
  const providers = REPORT_PROVIDERS.filter((provider) => options.reportSources.some((source) => source.provider === provider));
  const asked = query.get('provider');
  const provider = providers.find((candidate) => candidate === asked);
  const state: ReconcilePageState = {
    providers,
    provider: provider ?? providers[0],
    from: query.get('from') ?? isoDay(Date.now() - 7 * DAY_MS),
    to: query.get('to') ?? isoDay(Date.now() - DAY_MS),
    threshold: DEFAULT_THRESHOLD_PERCENT,
  };
  const threshold = query.get('threshold');
  if (threshold !== null) {
    const value = Number(threshold);
    if (threshold.trim() === '' || !Number.isFinite(value) || value < 0) state.error = 'The threshold is a percentage, 0 or more.';
    else state.threshold = value;
  }
  if (!validDay(state.from) || !validDay(state.to) || state.from > state.to)
    state.error = 'The range needs two dates (YYYY-MM-DD), the first not after the second.';
  else if ((Date.parse(state.to) - Date.parse(state.from)) / DAY_MS + 1 > MAX_RANGE_DAYS)
    state.error = `A range is at most ${MAX_RANGE_DAYS} days.`;
  if (asked !== null && provider === undefined) state.error = `No admin key is configured for '${asked}'.`;
  const source = options.reportSources.find((candidate) => candidate.provider === provider);
  if (state.error === undefined && source !== undefined) {
    try {
      state.result = await reconcile(db, source, { provider: source.provider, from: state.from, to: state.to, threshold: state.threshold });
    } catch (error) {
      // The provider refused or could not be reached: its words (never the admin key), on the page.
      if (!GatewayError.isInstance(error)) throw error;
      options.logger.warn(
        { code: error.code, provider: source.provider },
        'switchyard: console reconciliation could not read the provider report',
      );
      state.error = error.message;
    }
  }
  return sendHtml(visit.res, state.error === undefined ? 200 : 400, reconcilePage(visit.ctx, state), visit.cookies);
}
