/** The longest key name: a label for lists and logs, not a document. */
export const KEY_NAME_MAX = 200;

/**
 * The largest budget a key can have, in US dollars. Spend is kept as integer nano-USD, exact only
 * up to Number.MAX_SAFE_INTEGER (about $9M); $1M leaves room for the spend counted against it
 * (which may pass the budget by the last request's cost) to stay exact.
 */
export const BUDGET_MAX_USD = 1_000_000;

/** What is wrong with `usd` as a budget (a finite amount from `min` to BUDGET_MAX_USD); undefined when nothing is. */
export function budgetUsdProblem(usd: unknown, min: 'zero' | 'positive'): string | undefined {
  const low = min === 'zero' ? typeof usd === 'number' && usd >= 0 : typeof usd === 'number' && usd > 0;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || !low || usd > BUDGET_MAX_USD) {
    return `must be an amount of US dollars, ${min === 'zero' ? '0' : 'more than 0'} to ${BUDGET_MAX_USD.toLocaleString('en-US')}`;
  }
  return undefined;
}
