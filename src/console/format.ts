/** `$0.000123`: nano-USD as dollars, to the millionth (a cheap request is still visible). */
export function formatUsd(nanoUsd: number): string {
  return `$${(nanoUsd / 1e9).toFixed(6)}`;
}

/**
 * A cost that never reads $0 for traffic without a price: `$0.000123`, `2 unpriced`, or
 * `$0.000123 + 2 unpriced`.
 */
export function formatCost(nanoUsd: number, unpriced: number): string {
  if (unpriced === 0) return formatUsd(nanoUsd);
  const count = `${unpriced.toLocaleString('en-US')} unpriced`;
  return nanoUsd === 0 ? count : `${formatUsd(nanoUsd)} + ${count}`;
}

/** USD per million tokens, as prices are quoted. */
export function formatPrice(usdPerMillion: number | undefined): string {
  return usdPerMillion === undefined ? '—' : `$${usdPerMillion}`;
}

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/** `2026-11-27 14:03 UTC`; `never` for no time. */
export function formatTime(epochMs: number | undefined, none = 'never'): string {
  return epochMs === undefined ? none : `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2026-11-27`: a date input's value. */
export const isoDay = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);
