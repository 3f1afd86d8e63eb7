import { configError } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import { appendBalanceRows } from './balance-ledger.js';

/** The largest single credit: $1,000,000 (a typo of a few zeros is refused, and sums stay far inside 2^63 nano-USD). */
export const MAX_CREDIT_USD = 1_000_000;

export type CreditKind = 'top-up' | 'refund' | 'adjustment';

/** Nano-USD of a dollar amount typed by a person; throws BALANCE_AMOUNT_INVALID for anything else. `signed`: an adjustment may take away. */
export function nanoUsdOf(usd: unknown, signed = false): number {
  const value = typeof usd === 'string' ? Number(usd.trim().replace(/^\$/, '')) : usd;
  if (typeof value !== 'number' || !Number.isFinite(value) || (signed ? value === 0 : value <= 0) || Math.abs(value) > MAX_CREDIT_USD) {
    throw configError(
      'BALANCE_AMOUNT_INVALID',
      `The amount must be a number of dollars${signed ? ', not 0,' : ' above 0'} up to ${MAX_CREDIT_USD.toLocaleString('en-US')} (got '${String(usd)}').`,
    );
  }
  return Math.round(value * 1e9);
}

/** Credits (or, for an adjustment, may debit) an account: one row of its balance ledger, naming who and why. */
export async function creditAccount(
  db: StorageDb,
  init: { accountId: string; nanoUsd: number; kind: CreditKind; actorId: string; note: string | undefined },
  now = Date.now(),
): Promise<void> {
  await appendBalanceRows(db, [
    {
      accountId: init.accountId,
      at: now,
      kind: init.kind,
      nanoUsd: init.nanoUsd,
      actorId: init.actorId,
      note: init.note,
      requestId: undefined,
    },
  ]);
}
