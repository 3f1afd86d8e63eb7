import type { StorageDb } from '../storage/schema.js';
import { appendAuditRow } from '../storage/admin-audit.js';
import { balanceOf } from './balance-ledger.js';
import { creditLimitOf, setCreditLimit } from './credit-limits.js';
import { creditAccount, type CreditKind } from './top-up.js';

/** A console account as the admin API names it: by id or e-mail address. */
export async function findAccount(db: StorageDb, ref: string): Promise<{ id: string; email: string } | undefined> {
  const byEmail = ref.includes('@');
  return db
    .selectFrom('console_users')
    .select(['id', 'email'])
    .where(byEmail ? 'email' : 'id', '=', byEmail ? ref.trim().toLowerCase() : ref)
    .executeTakeFirst();
}

/** Credits an account on behalf of `actor`, with its audit row; returns the balance after. */
export async function auditedCredit(
  db: StorageDb,
  account: { id: string; email: string },
  credit: { nanoUsd: number; kind: CreditKind; note: string | undefined },
  actor: { id: string; email: string },
): Promise<number> {
  await creditAccount(db, { accountId: account.id, nanoUsd: credit.nanoUsd, kind: credit.kind, actorId: actor.id, note: credit.note });
  await appendAuditRow(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: credit.kind === 'adjustment' ? 'balance.adjustment' : 'balance.top-up',
    target: account.email,
    detail: `${credit.kind} $${(credit.nanoUsd / 1e9).toFixed(6)}${credit.note === undefined ? '' : ` — ${credit.note}`}`,
  });
  return balanceOf(db, account.id);
}

/** How the audit log states a credit limit. */
export const creditLimitText = (nanoUsd: number) => (nanoUsd === 0 ? 'none' : `$${(nanoUsd / 1e9).toFixed(2)}`);

/** Sets an account's credit limit (0: none) on behalf of `actor`, with its audit row. */
export async function auditedCreditLimit(
  db: StorageDb,
  account: { id: string; email: string },
  nanoUsd: number,
  actor: { id: string; email: string },
): Promise<void> {
  await setCreditLimit(db, account.id, nanoUsd);
  await appendAuditRow(db, {
    actorId: actor.id,
    actorEmail: actor.email,
    action: 'balance.credit-limit',
    target: account.email,
    detail: creditLimitText(nanoUsd),
  });
}

/** Who the audit log names for the admin API: whoever holds the admin key. */
const ADMIN_API_ACTOR = { id: 'admin-api', email: 'admin API' };

/** The admin API's view of balances: credit and read an account by id or e-mail, telling the instances of each credit. */
export function adminAccounts(db: () => Promise<StorageDb>, credited: (accountId: string) => Promise<void>) {
  return {
    async credit(ref: string, credit: { nanoUsd: number; kind: CreditKind; note: string | undefined }) {
      const store = await db();
      const account = await findAccount(store, ref);
      if (account === undefined) return undefined;
      const balanceNanoUsd = await auditedCredit(store, account, credit, ADMIN_API_ACTOR);
      await credited(account.id);
      return { ...account, balanceNanoUsd };
    },
    async balance(ref: string) {
      const store = await db();
      const account = await findAccount(store, ref);
      if (account === undefined) return undefined;
      return { ...account, balanceNanoUsd: await balanceOf(store, account.id), creditLimitNanoUsd: await creditLimitOf(store, account.id) };
    },
    /** Sets the account's credit limit (0: none), telling the instances as a credit does. */
    async setCreditLimit(ref: string, nanoUsd: number) {
      const store = await db();
      const account = await findAccount(store, ref);
      if (account === undefined) return undefined;
      await auditedCreditLimit(store, account, nanoUsd, ADMIN_API_ACTOR);
      await credited(account.id);
      return { ...account, balanceNanoUsd: await balanceOf(store, account.id), creditLimitNanoUsd: nanoUsd };
    },
  };
}
