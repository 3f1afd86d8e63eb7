/** One key's spend in one budget period. */
export interface BudgetAccount {
  keyId: string;
  /** Epoch ms the period began: each period counts from zero (plus what the ledger already holds). */
  periodStart: number;
  /** Epoch ms the period ends (counters may be dropped then); undefined for a budget that never resets. */
  periodEnd: number | undefined;
  limitNanoUsd: number;
  /** What the ledger holds for the key since `periodStart`: the counter's starting value. */
  spentInLedger(): Promise<number>;
}

/** A reservation let in, or the spend that refused it. */
export type Reservation = { ok: true } | { ok: false; spentNanoUsd: number };

/**
 * Spend counters that admit a request only when its largest possible cost fits what is left of
 * the budget, atomically: concurrent requests never overshoot together. In memory for one
 * instance; in Redis for several.
 */
export interface BudgetStore {
  reserve(account: BudgetAccount, nanoUsd: number): Promise<Reservation>;
  /** Replaces a reservation by the real cost (0 when nothing was spent). */
  settle(account: BudgetAccount, reservedNanoUsd: number, actualNanoUsd: number): void;
}

/** Budgets for one instance: counters in memory, each started from the ledger the first time it is used. */
export class MemoryBudgetStore implements BudgetStore {
  readonly #spent = new Map<string, number>();
  readonly #loading = new Map<string, Promise<void>>();

  async reserve(account: BudgetAccount, nanoUsd: number): Promise<Reservation> {
    const id = `${account.keyId}:${account.periodStart}`;
    if (!this.#spent.has(id)) {
      let loading = this.#loading.get(id);
      if (loading === undefined) {
        loading = account.spentInLedger().then((spent) => {
          if (!this.#spent.has(id)) this.#spent.set(id, spent);
        });
        this.#loading.set(id, loading);
        void loading.finally(() => this.#loading.delete(id)).catch(() => undefined);
      }
      await loading;
    }
    // From here to the update nothing awaits: the check and the add are one step.
    const spent = this.#spent.get(id) ?? 0;
    if (spent + nanoUsd > account.limitNanoUsd) return { ok: false, spentNanoUsd: spent };
    this.#spent.set(id, spent + nanoUsd);
    return { ok: true };
  }

  settle(account: BudgetAccount, reservedNanoUsd: number, actualNanoUsd: number): void {
    const id = `${account.keyId}:${account.periodStart}`;
    this.#spent.set(id, (this.#spent.get(id) ?? 0) + actualNanoUsd - reservedNanoUsd);
  }
}
