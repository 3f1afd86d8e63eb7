import { GatewayError } from '../canonical/index.js';
import { DAY_MS, dayStart, type ReportRange } from './provider-report.js';

/** A page of a provider's report: its buckets, and the cursor of the next page when there is one. */
interface ReportPage {
  data?: unknown;
  has_more?: unknown;
  next_page?: unknown;
}

/** Pages a report may have before the reader stops: a provider that kept answering `has_more` would otherwise be read forever. */
const MAX_PAGES = 500;
const TIMEOUT_MS = 60_000;
/** A page answered 429 is asked again up to this many times, after the wait the provider asks for (at most MAX_WAIT_MS, 1 s when it says nothing). */
const RATE_LIMIT_RETRIES = 3;
const MAX_WAIT_MS = 60_000;

/** How long a 429 asks to wait: `retry-after` in seconds, bounded. */
function waitOf(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, MAX_WAIT_MS) : 1000;
}

/** The provider's own words about a refused call, short (an error body is the provider's, never the admin key). */
async function reasonOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof body.error === 'string' ? body.error : body.error?.message;
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

/**
 * Reads every page of a report: `url(page)` for each, following `next_page` while `has_more`
 * says so, and hands each page's `data` buckets back in order.
 */
export async function fetchReportPages(
  label: string,
  url: (page: string | undefined) => URL,
  headers: Record<string, string>,
): Promise<unknown[]> {
  const buckets: unknown[] = [];
  let page: string | undefined;
  let retries = 0;
  for (let read = 0; read < MAX_PAGES; read += 1) {
    const target = url(page);
    let response: Response;
    try {
      response = await fetch(target, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new GatewayError({
        code: 'RECONCILE_REPORT_UNREACHABLE',
        message: `${label} could not be read from ${target.origin}: ${(error as Error).message}`,
        cause: error,
      });
    }
    // The admin APIs are rate-limited (a long range is many pages): wait as asked, then read the same page again.
    if (response.status === 429 && retries < RATE_LIMIT_RETRIES) {
      retries += 1;
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitOf(response)));
      read -= 1;
      continue;
    }
    if (!response.ok) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' Is adminKey an admin key of the organisation (not a project or API key)?'
          : '';
      const reason = (await reasonOf(response)).trim();
      throw new GatewayError({
        code: 'RECONCILE_REPORT_REFUSED',
        message: `${label} answered ${response.status}: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}${hint}`,
      });
    }
    const body = (await response.json().catch(() => ({}))) as ReportPage;
    if (!Array.isArray(body.data))
      throw new GatewayError({ code: 'RECONCILE_REPORT_INVALID', message: `${label} answered without a data list.` });
    buckets.push(...(body.data as unknown[]));
    retries = 0;
    if (body.has_more !== true || typeof body.next_page !== 'string' || body.next_page === '') return buckets;
    page = body.next_page;
  }
  throw new GatewayError({ code: 'RECONCILE_REPORT_INVALID', message: `${label} still had more after ${MAX_PAGES} pages.` });
}

/** A count from a report: a non-negative finite number, else 0 (providers leave out counts that are 0). */
export const countOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

/** A string field from a report, or null. */
export const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The most daily buckets OpenAI and Anthropic give on one page (`bucket_width=1d`). */
const DAYS_PER_PAGE = 31;

/** How a provider's report names its time window: the two parameters, and how a moment is written. */
export interface ReportWindow {
  start: string;
  end: string;
  moment: (epochMs: number) => string;
}

/** The URL of one page of a daily report over `range`'s whole UTC days, grouped by `groupBy`. */
export function dailyReportUrl(
  base: string,
  path: string,
  range: ReportRange,
  window: ReportWindow,
  groupBy: readonly string[],
  page: string | undefined,
): URL {
  const url = new URL(`${base}${path}`);
  url.searchParams.set(window.start, window.moment(dayStart(range.from)));
  url.searchParams.set(window.end, window.moment(dayStart(range.to) + DAY_MS));
  url.searchParams.set('bucket_width', '1d');
  for (const field of groupBy) url.searchParams.append('group_by[]', field);
  url.searchParams.set('limit', String(DAYS_PER_PAGE));
  if (page !== undefined) url.searchParams.set('page', page);
  return url;
}
