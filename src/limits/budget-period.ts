export type BudgetPeriodName = 'day' | 'month' | 'never';

/** The budget period `now` falls in: UTC days and calendar months; `never` is one period from the start. */
export interface BudgetWindow {
  /** Epoch ms the period began. */
  start: number;
  /** Epoch ms the next period begins; undefined for `never`. */
  resetsAt: number | undefined;
}

export function budgetWindowOf(period: BudgetPeriodName, now: number): BudgetWindow {
  if (period === 'never') return { start: 0, resetsAt: undefined };
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  if (period === 'month') return { start: Date.UTC(year, month, 1), resetsAt: Date.UTC(year, month + 1, 1) };
  const day = date.getUTCDate();
  return { start: Date.UTC(year, month, day), resetsAt: Date.UTC(year, month, day + 1) };
}
