import { randomBytes } from 'node:crypto';
import type { StorageDb } from '../storage/schema.js';

/** What changed a balance. Credits: all but `usage`. */
export type BalanceRowKind = 'top-up' | 'refund' | 'adjustment' | 'redemption' | 'usage';
export const CREDIT_KINDS: readonly BalanceRowKind[] = ['top-up', 'refund', 'adjustment', 'redemption'];

export interface BalanceRow {
  id: string;
  accountId: string;
  at: number;
  kind: BalanceRowKind;
  /** Signed nano-USD: credits positive, usage negative. */
  nanoUsd: number;
  actorId: string | undefined;
  note: string | undefined;
  requestId: string | undefined;
}

export const newBalanceRowId = () => randomBytes(12).toString('base64url');

/** Appends rows (in one statement). */
export async function appendBalanceRows(db: StorageDb, rows: readonly Omit<BalanceRow, 'id'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('account_balance_ledger')
    .values(
      rows.map((row) => ({
        id: newBalanceRowId(),
        account_id: row.accountId,
        at: row.at,
        kind: row.kind,
        amount_nano_usd: row.nanoUsd,
        actor_id: row.actorId ?? null,
        note: row.note ?? null,
        request_id: row.requestId ?? null,
      })),
    )
    .execute();
}

async function sumOf(db: StorageDb, accountId: string, kinds: readonly BalanceRowKind[] | undefined): Promise<number> {
  let query = db
    .selectFrom('account_balance_ledger')
    .select((eb) => eb.fn.sum<number | string | null>('amount_nano_usd').as('total'))
    .where('account_id', '=', accountId);
  if (kinds !== undefined) query = query.where('kind', 'in', kinds);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** What was ever credited to the account (top-ups, refunds, adjustments, redemptions). */
export const creditsOf = (db: StorageDb, accountId: string) => sumOf(db, accountId, CREDIT_KINDS);
/** What the account's usage rows took (a positive number). */
export const usageOf = async (db: StorageDb, accountId: string) => -(await sumOf(db, accountId, ['usage']));
/** The balance: the sum of every row. */
export const balanceOf = (db: StorageDb, accountId: string) => sumOf(db, accountId, undefined);

/** The balance of every account that has rows. */
export async function balances(db: StorageDb): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('account_balance_ledger')
    .select(['account_id', (eb) => eb.fn.sum<number | string>('amount_nano_usd').as('total')])
    .groupBy('account_id')
    .execute();
  return new Map(rows.map((row) => [row.account_id, Number(row.total)]));
}

/** The account's rows, newest first. */
export async function balanceHistory(db: StorageDb, accountId: string, limit = 500): Promise<BalanceRow[]> {
  const rows = await db
    .selectFrom('account_balance_ledger')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    at: Number(row.at),
    kind: row.kind as BalanceRowKind,
    nanoUsd: Number(row.amount_nano_usd),
    actorId: row.actor_id ?? undefined,
    note: row.note ?? undefined,
    requestId: row.request_id ?? undefined,
  }));
}
