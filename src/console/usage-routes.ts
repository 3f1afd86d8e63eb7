import { sendHtml, sendText } from './console-http.js';
import type { ResolvedConsoleOptions } from './console-options.js';
import { isoDay } from './format.js';
import { usageCsv, usagePage } from './usage-page.js';
import { usageReport } from './usage-report.js';
import type { Visit } from './visitor-session.js';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

export async function showUsage(visit: Visit, options: ResolvedConsoleOptions, csv: boolean): Promise<void> {
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
    return sendText(visit.res, 200, 'text/csv; charset=utf-8', usageCsv(rows, keyNames), {
      'Content-Disposition': `attachment; filename="switchyard-usage-${from}-to-${to}.csv"`,
    });
  }
  const days: string[] = [];
  for (let day = start; day < end; day += DAY_MS) days.push(isoDay(day));
  const metric = query.get('metric');
  const chart = metric === 'tokens' || metric === 'cost' ? metric : 'requests';
  return sendHtml(
    visit.res,
    200,
    usagePage(visit.ctx, { rows, days, from, to, metric: chart, keyNames, ...(error === undefined ? {} : { error }) }),
    visit.cookies,
  );
}
