import { configError } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import { MAX_CREDIT_USD } from './top-up.js';

/**
 * Nano-USD of a credit limit typed by a person (dollars, 0 for none); throws BALANCE_AMOUNT_INVALID
 * for anything else. Kept to whole nano-USD, like every amount of the balance ledger.
 */
export function creditLimitNanoUsdOf(usd: unknown): number {
  const value = typeof usd === 'string' ? Number(usd.trim().replace(/^\$/, '')) : usd;
  if (typeof usd === 'string' && usd.trim() === '') return invalid(usd);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_CREDIT_USD) return invalid(usd);
  return Math.round(value * 1e9);
}

function invalid(usd: unknown): never {
  throw configError(
    'BALANCE_AMOUNT_INVALID',
    `The credit limit must be a number of dollars from 0 (none) up to ${MAX_CREDIT_USD.toLocaleString('en-US')} (got '${String(usd)}').`,
  );
}

/** How far below zero the account's balance may go (nano-USD, 0 when not at all). */
export async function creditLimitOf(db: StorageDb, accountId: string): Promise<number> {
  const row = await db.selectFrom('console_users').select('credit_limit_nano_usd').where('id', '=', accountId).executeTakeFirst();
  return Number(row?.credit_limit_nano_usd ?? 0);
}

/** Every account's credit limit that is not 0. */
export async function creditLimits(db: StorageDb): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('console_users')
    .select(['id', 'credit_limit_nano_usd'])
    .where('credit_limit_nano_usd', 'is not', null)
    .where('credit_limit_nano_usd', '>', 0)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.credit_limit_nano_usd)]));
}

/** Sets the account's credit limit (0: none); false when there is no such account. */
export async function setCreditLimit(db: StorageDb, accountId: string, nanoUsd: number): Promise<boolean> {
  const result = await db
    .updateTable('console_users')
    .set({ credit_limit_nano_usd: nanoUsd === 0 ? null : nanoUsd })
    .where('id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
