import { auditedCreditLimit, creditLimitText } from '../limits/account-top-ups.js';
import { balanceHistory, balanceOf } from '../limits/balance-ledger.js';
import { creditLimitNanoUsdOf, creditLimitOf } from '../limits/credit-limits.js';
import { accountKeySpend } from './account-key-spend.js';
import { createCodes, listCodeBatches, MAX_CODES_PER_BATCH, redeemCode } from '../limits/redemption-codes.js';
import { creditAccount, nanoUsdOf } from '../limits/top-up.js';
import { recordAdminAction } from './audit-log.js';
import { balanceCsv, balancePage, type BalanceState } from './balance-page.js';
import { codesPage } from './codes-page.js';
import { sendHtml, sendText } from './console-http.js';
import type { ConsoleBalances, ResolvedConsoleOptions } from './console-options.js';
import { formatUsd } from './format.js';
import { showUsers } from './user-admin-routes.js';
import { findUserById, type ConsoleUser } from './users.js';
import { notFound, type Visit } from './visitor-session.js';

const DAY_MS = 86_400_000;

/** The account whose balance the page shows: one's own, or (an admin) anyone's. */
async function accountFor(visit: Visit, user: ConsoleUser): Promise<ConsoleUser | undefined> {
  const asked = visit.query.get('account');
  if (asked === null || asked === user.id) return user;
  return user.isAdmin ? findUserById(visit.db, asked) : undefined;
}

async function balanceState(
  visit: Visit,
  account: ConsoleUser,
  chargeAdmins: boolean,
  extra: Pick<BalanceState, 'info' | 'error'> = {},
): Promise<BalanceState> {
  return {
    email: account.email,
    accountId: account.id,
    charged: !account.isAdmin || chargeAdmins,
    balance: await balanceOf(visit.db, account.id),
    creditLimit: await creditLimitOf(visit.db, account.id),
    keys: await accountKeySpend(visit.db, account.id),
    history: await balanceHistory(visit.db, account.id),
    ...extra,
  };
}

export async function showBalance(visit: Visit, options: ResolvedConsoleOptions, user: ConsoleUser, csv: boolean): Promise<void> {
  const account = await accountFor(visit, user);
  if (account === undefined) return notFound(visit);
  const state = await balanceState(visit, account, options.chargeAdmins);
  if (csv)
    return sendText(visit.res, 200, 'text/csv; charset=utf-8', balanceCsv(state.history), {
      'Content-Disposition': `attachment; filename="switchyard-balance-${account.id}.csv"`,
    });
  return sendHtml(visit.res, 200, balancePage(visit.ctx, state), visit.cookies);
}

const REDEEM_REFUSALS = {
  unknown: 'There is no such code: check what you typed.',
  used: 'This code was redeemed already.',
  expired: 'This code has expired.',
} as const;

/** Redeems a code for the signed-in user's account; the gateway is told, so the credit counts at once. */
export async function redeem(
  visit: Visit,
  options: ResolvedConsoleOptions,
  balances: ConsoleBalances,
  user: ConsoleUser,
  form: URLSearchParams,
): Promise<void> {
  const code = (form.get('code') ?? '').slice(0, 100);
  const redeemed = await redeemCode(visit.db, code, user.id);
  if (!redeemed.ok)
    return sendHtml(
      visit.res,
      400,
      balancePage(visit.ctx, await balanceState(visit, user, options.chargeAdmins, { error: REDEEM_REFUSALS[redeemed.reason] })),
      visit.cookies,
    );
  await balances.credited(user.id);
  options.logger.info({ userId: user.id, batch: redeemed.batchId, nanoUsd: redeemed.nanoUsd }, 'switchyard: redemption code redeemed');
  return sendHtml(
    visit.res,
    200,
    balancePage(
      visit.ctx,
      await balanceState(visit, user, options.chargeAdmins, { info: `${formatUsd(redeemed.nanoUsd)} added to your balance.` }),
    ),
    visit.cookies,
  );
}

/** An admin tops up another account (a top-up, refund or adjustment), with a note; recorded in the audit log. */
export async function topUpUser(
  visit: Visit,
  options: ResolvedConsoleOptions,
  balances: ConsoleBalances,
  admin: ConsoleUser,
  targetId: string,
  form: URLSearchParams,
): Promise<void> {
  const target = await findUserById(visit.db, targetId);
  if (target === undefined) return notFound(visit);
  const kind = form.get('kind') === 'adjustment' ? 'adjustment' : form.get('kind') === 'refund' ? 'refund' : 'top-up';
  let nanoUsd: number;
  try {
    nanoUsd = nanoUsdOf(form.get('usd') ?? '', kind === 'adjustment');
  } catch (error) {
    return showUsers(visit, options, { error: (error as Error).message }, 400);
  }
  const note = (form.get('note') ?? '').trim().slice(0, 200) || undefined;
  await creditAccount(visit.db, { accountId: target.id, nanoUsd, kind, actorId: admin.id, note });
  await balances.credited(target.id);
  await recordAdminAction(
    visit.db,
    admin,
    kind === 'adjustment' ? 'balance.adjustment' : 'balance.top-up',
    target.email,
    `${kind} ${formatUsd(nanoUsd)}${note === undefined ? '' : ` — ${note}`}`,
  );
  return showUsers(visit, options, {
    info: `${formatUsd(nanoUsd)} ${kind === 'adjustment' ? 'adjusted on' : 'added to'} the balance of ${target.email}.`,
  });
}

/** An admin sets how far below zero an account's balance may go (0: not at all); recorded in the audit log. */
export async function setAccountCreditLimit(
  visit: Visit,
  options: ResolvedConsoleOptions,
  balances: ConsoleBalances,
  admin: ConsoleUser,
  form: URLSearchParams,
): Promise<void> {
  const target = await findUserById(visit.db, form.get('account') ?? '');
  if (target === undefined) return notFound(visit);
  const show = async (status: number, extra: Pick<BalanceState, 'info' | 'error'>) =>
    sendHtml(visit.res, status, balancePage(visit.ctx, await balanceState(visit, target, options.chargeAdmins, extra)), visit.cookies);
  let nanoUsd: number;
  try {
    nanoUsd = creditLimitNanoUsdOf(form.get('usd') ?? '');
  } catch (error) {
    return show(400, { error: (error as Error).message });
  }
  await auditedCreditLimit(visit.db, target, nanoUsd, admin);
  await balances.credited(target.id);
  return show(200, { info: `The credit limit of ${target.email} is ${creditLimitText(nanoUsd)}.` });
}

export async function showCodes(visit: Visit): Promise<void> {
  return sendHtml(visit.res, 200, codesPage(visit.ctx, await listCodeBatches(visit.db)), visit.cookies);
}

/** An admin makes a batch of codes: shown once, only hashes kept; recorded in the audit log. */
export async function createCodeBatch(visit: Visit, admin: ConsoleUser, form: URLSearchParams): Promise<void> {
  const count = Number(form.get('count'));
  const days = Number(form.get('days') ?? 30);
  let nanoUsd: number;
  try {
    nanoUsd = nanoUsdOf(form.get('usd') ?? '');
  } catch (error) {
    return sendHtml(
      visit.res,
      400,
      codesPage(visit.ctx, await listCodeBatches(visit.db), { error: (error as Error).message }),
      visit.cookies,
    );
  }
  if (!Number.isInteger(count) || count < 1 || count > MAX_CODES_PER_BATCH || !Number.isFinite(days) || days <= 0 || days > 3650) {
    return sendHtml(
      visit.res,
      400,
      codesPage(visit.ctx, await listCodeBatches(visit.db), { error: `Make 1 to ${MAX_CODES_PER_BATCH} codes, valid for 1 to 3650 days.` }),
      visit.cookies,
    );
  }
  const { batchId, codes } = await createCodes(visit.db, { count, nanoUsd, expiresAt: Date.now() + days * DAY_MS, createdBy: admin.id });
  await recordAdminAction(visit.db, admin, 'codes.created', `batch ${batchId}`, `${count} × ${formatUsd(nanoUsd)}, valid ${days} days`);
  return sendHtml(visit.res, 201, codesPage(visit.ctx, await listCodeBatches(visit.db), { created: { codes, nanoUsd } }), visit.cookies);
}
