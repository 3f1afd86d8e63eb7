import { GatewayError, type Caller, type Usage } from '../canonical/index.js';
import type { Admission, AdmissionRequest, AdmitStage, CutShort } from './admit-stage.js';
import { budgetWindowOf } from './budget-period.js';
import type { BudgetAccount, BudgetStore } from './budget-store.js';

export interface BudgetStageOptions {
  store: BudgetStore;
  /** The largest cost the request can reach (nano-USD); undefined when its model has no price. */
  maxCost(request: AdmissionRequest): number | undefined;
  /** The cost of `usage` on `model` (nano-USD); undefined when a count or the price is unknown. */
  cost(model: string, usage: Usage): number | undefined;
  /** What the ledger holds for the key since `since` (nano-USD). */
  spentInLedger(keyId: string, since: number): Promise<number>;
  now?: () => number;
}

/** Characters per token when a cut stream's output is estimated, as the ledger does. */
const CHARS_PER_TOKEN = 4;

const dollars = (nanoUsd: number) => `$${(nanoUsd / 1e9).toFixed(2)}`;

function budgetExceeded(caller: Caller, limit: number, spent: number, resetsAt: number | undefined, now: number): GatewayError {
  const when = resetsAt === undefined ? 'It does not reset; ask for a new key or a larger budget.' : `It resets at ${new Date(resetsAt).toISOString()}.`;
  return new GatewayError({
    kind: 'quota',
    code: 'BUDGET_EXCEEDED',
    message: `The key ${caller.keyId ?? ''} has used ${dollars(spent)} of its ${dollars(limit)} budget, and this request could cost more than is left. ${when}`,
    ...(resetsAt === undefined ? {} : { retryAfter: Math.max(1, Math.ceil((resetsAt - now) / 1000)) }),
    retryable: false,
  });
}

function unpricedModel(caller: Caller, model: string): GatewayError {
  return new GatewayError({
    kind: 'permission',
    code: 'MODEL_UNPRICED',
    param: 'model',
    message: `The key ${caller.keyId ?? ''} has a budget, and the model '${model}' has no price, so its cost cannot be held to it. Give the model a price, or use a key without a budget.`,
  });
}

/**
 * Holds keys with a budget to it, without overshooting under concurrency: before the call the
 * request's largest possible cost is reserved (its input bound and full output allowance), and
 * refused with the caller's quota error when it does not fit; after the call the reservation is
 * replaced by the real cost, or released when nothing was delivered.
 */
export function withBudgets(inner: AdmitStage, options: BudgetStageOptions): AdmitStage {
  const now = options.now ?? Date.now;
  return {
    async admit(request) {
      const { caller } = request;
      const budget = caller.budget;
      if (budget === undefined || caller.keyId === undefined) return inner.admit(request);
      const keyId = caller.keyId;
      const largest = options.maxCost(request);
      if (largest === undefined) throw unpricedModel(caller, request.model);
      const reserved: number = largest;
      const at = now();
      const window = budgetWindowOf(budget.period, at);
      const account: BudgetAccount = {
        keyId,
        periodStart: window.start,
        periodEnd: window.resetsAt,
        limitNanoUsd: budget.nanoUsd,
        spentInLedger: () => options.spentInLedger(keyId, window.start),
      };
      const reservation = await options.store.reserve(account, reserved);
      if (!reservation.ok) throw budgetExceeded(caller, budget.nanoUsd, reservation.spentNanoUsd, window.resetsAt, at);
      let admitted: Admission;
      try {
        admitted = await inner.admit(request);
      } catch (error) {
        options.store.settle(account, reserved, 0);
        throw error;
      }
      return {
        release(usage, cut) {
          admitted.release(usage, cut);
          options.store.settle(account, reserved, actualCost(usage, cut));
        },
      };

      /** The real cost; a count that is unknown keeps its share of the reservation. */
      function actualCost(usage: Usage | undefined, cut: CutShort | undefined): number {
        if (cut !== undefined) {
          const sent = { ...cut.startUsage, outputTokens: Math.ceil(cut.outputChars / CHARS_PER_TOKEN) };
          // Without a reported input count the reservation's input share stays spent: never less than the truth.
          if (sent.inputTokens === undefined) return reserved;
          return Math.min(reserved, options.cost(request.model, sent) ?? reserved);
        }
        if (usage === undefined) return 0;
        return options.cost(request.model, usage) ?? reserved;
      }
    },
  };
}
