import { GatewayError, type Caller } from '../canonical/index.js';
import type { StorageDb } from '../storage/schema.js';
import { AccountCredits } from './account-credits.js';
import type { AdmissionRequest } from './admit-stage.js';
import { creditsOf, usageOf } from './balance-ledger.js';
import { creditLimitOf } from './credit-limits.js';
import { BalanceUsageWriter } from './balance-usage-writer.js';
import type { BudgetAccount } from './budget-store.js';
import type { HeldLimit } from './budget-stage.js';

/** The `balances` option: console accounts hold a prepaid balance their keys' requests are charged to. */
export interface BalancesOptions {
  /** Admins' accounts have a balance too. Default false: an admin's keys are not charged. */
  admins?: boolean;
  /** How long an instance trusts what it read of an account's credits without Redis, in ms. Default 2 000. */
  creditsTtlMs?: number;
}

const dollars = (nanoUsd: number) => `$${(nanoUsd / 1e9).toFixed(2)}`;

/**
 * What an account that cannot pay gets: the protocols' quota refusal (never retried), naming the
 * account. `left`: its balance plus its credit limit, less what its requests took.
 */
export function balanceExhausted(account: NonNullable<Caller['account']>, left: number): GatewayError {
  return new GatewayError({
    code: 'BALANCE_EXHAUSTED',
    message: `The account ${account.email ?? account.id} has ${dollars(Math.max(0, left))} left (its balance, and its credit limit if it has one), and this request could cost more. Top up the balance (an admin, or a redemption code in the console).`,
    retryable: false,
  });
}

export interface OpenedBalances {
  /** Admins' accounts are charged too (`balances.admins`). */
  readonly chargesAdmins: boolean;
  /** The counter a request on an account with a balance is held to (the budget stage's `accountLimit`). */
  accountLimit(request: AdmissionRequest, at: number): HeldLimit | undefined | Promise<HeldLimit | undefined>;
  /** An account was credited (a top-up, a code) or its credit limit changed: this instance, and with Redis every instance, reads its credits again. */
  credited(accountId: string): Promise<void>;
  /** Writes the usage rows that wait. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Tells every instance that an account was credited (the key revocation channel's mechanism, its own channel). */
export interface CreditChannel {
  publish(accountId: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenBalancesOptions {
  options: BalancesOptions;
  db: () => Promise<StorageDb>;
  /** Opens the channel credits are announced on (with Redis), calling back for each account credited anywhere. */
  openChannel?: (onCredited: (accountId: string) => void) => Promise<CreditChannel>;
  onError: (error: unknown) => void;
  /** How soon usage rows are written after their requests settled (one row per account per interval), in ms. Default 1 000. */
  writeIntervalMs?: number;
}

/**
 * Account balances: a request whose key belongs to an account with a balance is held to it with the
 * key budgets' reservation — the counter's limit is what the account was credited, its spend what
 * its usage took (seeded from the balance ledger) — and its real cost becomes a usage row.
 */
export function openBalances(settings: OpenBalancesOptions): OpenedBalances {
  const { options, db, onError } = settings;
  // What an account may spend in all: its credits, plus how far below zero an admin lets it go.
  const credits = new AccountCredits(async (accountId) => {
    const store = await db();
    const [credited, creditLimit] = await Promise.all([creditsOf(store, accountId), creditLimitOf(store, accountId)]);
    return credited + creditLimit;
  }, options.creditsTtlMs ?? 2_000);
  const writer = new BalanceUsageWriter(db, settings.writeIntervalMs ?? 1_000, onError);
  const channel = settings
    .openChannel?.((accountId) => credits.forget(accountId))
    .catch((error: unknown) => {
      onError(error);
      return undefined;
    });

  /** `credited`: what the account may spend in all (its credits and its credit limit). */
  const limitOf = (request: AdmissionRequest, account: NonNullable<Caller['account']>, credited: number, at: number): HeldLimit => {
    const counter: BudgetAccount = {
      keyId: `account:${account.id}`,
      periodStart: 0,
      periodEnd: undefined,
      limitNanoUsd: credited,
      spentInLedger: async () => usageOf(await db(), account.id),
    };
    return {
      account: counter,
      owner: `The account ${account.email ?? account.id}`,
      refuse: (spent) => balanceExhausted(account, credited - spent),
      settled: (actual) => {
        if (actual > 0) writer.add(account.id, actual, request.requestId, at);
      },
    };
  };

  return {
    chargesAdmins: options.admins === true,
    accountLimit(request, at) {
      const account = request.caller.account;
      if (account === undefined || (account.admin && options.admins !== true)) return undefined;
      const credited = credits.get(account.id);
      if (credited instanceof Promise) return credited.then((nanoUsd) => limitOf(request, account, nanoUsd, at));
      return limitOf(request, account, credited, at);
    },
    async credited(accountId) {
      credits.forget(accountId);
      await (await channel)?.publish(accountId).catch(onError);
    },
    flush: () => writer.flush(),
    async close() {
      await writer.close();
      await (await channel)?.close();
    },
  };
}
