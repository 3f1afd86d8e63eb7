import {
  estimateCutOutputTokens,
  estimateCutReasoningTokens,
  GatewayError,
  type Caller,
  type CutStream,
  type Usage,
  storeUnavailable,
} from '../canonical/index.js';
import type { Admission, AdmissionRequest, AdmissionControl } from './admit-stage.js';
import { budgetWindowOf } from './budget-period.js';
import { admitsReservation, type BudgetAccount, type BudgetStore, type Hold, type ReservationRule } from './budget-store.js';

/** The most a request can cost, and how sure that is. */
export interface LargestCost {
  nanoUsd: number;
  /**
   * `body`: its input bounded from its body. `window`: its input taken as its model's whole context
   * window (a document or image whose size the body does not tell). `none`: no bound known (such
   * input on a model whose window is unknown): `nanoUsd` counts it at an allowance.
   */
  bound: 'body' | 'window' | 'none';
}

/** A request bounded from its body only runs if it fits; one bounded by its window also alone when something is left; one without a bound only alone. */
const ruleOf: Record<LargestCost['bound'], ReservationRule> = { body: 'fit', window: 'fit-or-alone', none: 'alone' };

export interface BudgetStageOptions {
  store: BudgetStore;
  /** The largest cost the request can reach (nano-USD); undefined when its model has no price. */
  maxCost(request: AdmissionRequest): LargestCost | undefined;
  /** The cost of `usage` on `model` (nano-USD); undefined when a count or the price is unknown. */
  cost(model: string, usage: Usage): number | undefined;
  /** What the ledger holds for the key since `since` (nano-USD). */
  spentInLedger(keyId: string, since: number): Promise<number>;
  /** What the ledger holds for a browser token (nano-USD). */
  spentByToken(tokenId: string): Promise<number>;
  /**
   * A further counter the request is held to, with the same reservation (an account's balance);
   * undefined when it has none. A promise only when it must be read first.
   */
  accountLimit?: (request: AdmissionRequest, at: number) => HeldLimit | undefined | Promise<HeldLimit | undefined>;
  now?: () => number;
}

/** One counter a request is held to: its account, how errors name its owner, its refusal, and who hears the real cost. */
export interface HeldLimit {
  account: BudgetAccount;
  owner: string;
  refuse: (spent: number) => GatewayError;
  /** Told the real cost once the request settled (after the counter was). */
  settled?: (actualNanoUsd: number) => void;
}

const dollars = (nanoUsd: number) => `$${(nanoUsd / 1e9).toFixed(2)}`;

/** Seconds a request refused for others' reservations is told to wait: requests mostly finish within seconds. */
const BUSY_RETRY_AFTER_S = 2;

function budgetExceeded(caller: Caller, limit: number, spent: number, resetsAt: number | undefined, now: number): GatewayError {
  const when =
    resetsAt === undefined
      ? 'It does not reset; ask for a new key or a larger budget.'
      : `It resets at ${new Date(resetsAt).toISOString()}.`;
  return new GatewayError({
    code: 'BUDGET_EXCEEDED',
    message: `The key ${caller.keyId ?? ''} has used ${dollars(spent)} of its ${dollars(limit)} budget, and this request could cost more than is left. ${when}`,
    ...(resetsAt === undefined ? {} : { retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)) }),
  });
}

function tokenCapReached(tokenId: string, cap: number, spent: number): GatewayError {
  return new GatewayError({
    code: 'BUDGET_EXCEEDED',
    message: `The browser token ${tokenId} has used ${dollars(spent)} of its ${dollars(cap)} spend cap, and this request could cost more than is left. Ask your server for a new token.`,
  });
}

/**
 * The request would get in but for what requests under way have reserved: a 429 to retry, not the
 * quota error that tells clients to stop (their real cost is usually far below the reservation).
 */
function budgetBusy(owner: string, left: number, others: number): GatewayError {
  return new GatewayError({
    code: 'BUDGET_BUSY',
    message: `${owner} has ${dollars(left)} of its budget left, but requests under way hold ${dollars(others)} of it until they finish, and this request could cost more than the rest. Retry shortly.`,
    retryAfter: BUSY_RETRY_AFTER_S,
  });
}

/** The counters (Redis) or the ledger they start from cannot be reached: the budget cannot be checked, so nothing is spent. */
const budgetUnavailable = (cause: unknown) => storeUnavailable('BUDGET_UNAVAILABLE', cause);

function unpricedModel(caller: Caller, model: string): GatewayError {
  return new GatewayError({
    code: 'MODEL_UNPRICED',
    param: 'model',
    message:
      caller.budget === undefined && caller.token?.spendCapNanoUsd === undefined && caller.account !== undefined
        ? `The key ${caller.keyId ?? ''} is charged to the balance of its account, and the model '${model}' has no price, so its cost cannot be charged. Give the model a price.`
        : `The key ${caller.keyId ?? ''} has a budget, and the model '${model}' has no price, so its cost cannot be held to it. Give the model a price, or use a key without a budget.`,
  });
}

/**
 * Holds keys with a budget to it, without overshooting under concurrency: before the call the
 * request's largest possible cost is reserved (its input bound and full output allowance), and
 * refused with the caller's quota error when it does not fit; after the call the reservation is
 * replaced by the real cost, or released when nothing was delivered. A request whose input the
 * body does not bound may also run alone (ReservationRule): then at most its own excess overshoots.
 */
export function withBudgets(inner: AdmissionControl, options: BudgetStageOptions): AdmissionControl {
  const now = options.now ?? Date.now;

  /** The counters a caller's request is held to: its key's budget, and its browser token's cap. */
  /** `owner`: how errors name whose budget it is. */
  const limitsOf = (caller: Caller, at: number): HeldLimit[] => {
    const limits: HeldLimit[] = [];
    const { keyId, budget, token } = caller;
    if (keyId === undefined) return limits;
    if (budget !== undefined) {
      const window = budgetWindowOf(budget.period, at);
      limits.push({
        account: {
          keyId,
          periodStart: window.start,
          periodEnd: window.resetsAt,
          limitNanoUsd: budget.nanoUsd,
          spentInLedger: () => options.spentInLedger(keyId, window.start),
        },
        owner: `The key ${keyId}`,
        refuse: (spent) => budgetExceeded(caller, budget.nanoUsd, spent, window.resetsAt, at),
      });
    }
    if (token?.spendCapNanoUsd !== undefined) {
      const cap = token.spendCapNanoUsd;
      limits.push({
        account: {
          keyId: `token:${token.id}`,
          periodStart: 0,
          periodEnd: token.expiresAt,
          limitNanoUsd: cap,
          spentInLedger: () => options.spentByToken(token.id),
        },
        owner: `The browser token ${token.id}`,
        refuse: (spent) => tokenCapReached(token.id, cap, spent),
      });
    }
    return limits;
  };

  return {
    // Synchronous for callers without limits: hot-path rule 2 (docs/architecture.md#hot-path-rules).
    admit(request) {
      const { caller } = request;
      const at = now();
      const extra = options.accountLimit?.(request, at);
      if (extra instanceof Promise) {
        return extra.then(
          (limit) => {
            const limits = [...limitsOf(caller, at), ...(limit === undefined ? [] : [limit])];
            return limits.length === 0 ? inner.admit(request) : admitWithin(request, limits);
          },
          (error: unknown) => {
            throw GatewayError.isInstance(error) ? error : budgetUnavailable(error);
          },
        );
      }
      if (caller.budget === undefined && caller.token?.spendCapNanoUsd === undefined && extra === undefined) return inner.admit(request);
      return admitWithin(request, [...limitsOf(caller, at), ...(extra === undefined ? [] : [extra])]);
    },
  };

  async function admitWithin(request: AdmissionRequest, limits: HeldLimit[]): Promise<Admission> {
    const { caller } = request;
    const largest = options.maxCost(request);
    if (largest === undefined) throw unpricedModel(caller, request.model);
    const reserved = largest.nanoUsd;
    const bounded = largest.bound !== 'none';
    const held: Array<{ account: BudgetAccount; hold: Hold; settled: HeldLimit['settled'] }> = [];
    const releaseHeld = () => {
      for (const { account, hold } of held) options.store.settle(account, hold, 0);
    };
    const rule = ruleOf[largest.bound];
    for (const { account, owner, refuse, settled } of limits) {
      const reservation = await options.store.reserve(account, reserved, rule).catch((error: unknown) => {
        releaseHeld();
        throw GatewayError.isInstance(error) ? error : budgetUnavailable(error);
      });
      if (!reservation.ok) {
        releaseHeld();
        const { spentNanoUsd: spent, heldNanoUsd: others } = reservation;
        // Refused only for what requests under way hold: it may get in once they are done.
        if (others > 0 && admitsReservation(rule, spent, 0, reserved, account.limitNanoUsd))
          throw budgetBusy(owner, account.limitNanoUsd - spent, others);
        throw refuse(spent);
      }
      held.push({ account, hold: reservation.hold, settled });
    }
    let admitted: Admission;
    try {
      admitted = await inner.admit(request);
    } catch (error) {
      releaseHeld();
      throw error;
    }
    return {
      ...(admitted.rateLimit === undefined ? {} : { rateLimit: admitted.rateLimit }),
      release(usage, cut) {
        admitted.release(usage, cut);
        const actual = actualCost(usage, cut);
        for (const { account, hold, settled } of held) {
          options.store.settle(account, hold, actual);
          settled?.(actual);
        }
      },
    };

    /** The real cost; a count that is unknown keeps its share of the reservation. */
    function actualCost(usage: Usage | undefined, cut: CutStream | undefined): number {
      if (cut !== undefined) {
        const reasoningTokens = estimateCutReasoningTokens(cut);
        const sent = {
          ...cut.startUsage,
          outputTokens: estimateCutOutputTokens(cut),
          ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
        };
        // Without a reported input count the reservation's input share stays spent: never less than the truth.
        if (sent.inputTokens === undefined) return reserved;
        const estimated = options.cost(request.model, sent) ?? reserved;
        // A true bound caps the estimate (its output count runs high); an allowance does not.
        return bounded ? Math.min(reserved, estimated) : estimated;
      }
      if (usage === undefined) return 0;
      return options.cost(request.model, usage) ?? reserved;
    }
  }
}
