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

/**
 * When a reservation is let in. `fit`: only when it fits what is left (its amount is a true upper
 * bound). `fit-or-alone`: also when it does not fit but something is left and no other reservation
 * is out. `alone`: only when something is left and no other reservation is out, whatever its
 * amount (it is no bound: at most one such request's excess can overshoot the budget).
 */
export type ReservationRule = 'fit' | 'fit-or-alone' | 'alone';

/** A reservation held: what `settle` gives back. */
export interface Hold {
  readonly id: string;
  readonly nanoUsd: number;
}

/** A reservation let in, or what refused it: the spend settled, and the reservations still out. */
export type Reservation = { ok: true; hold: Hold } | { ok: false; spentNanoUsd: number; heldNanoUsd: number };

/**
 * Spend counters that admit a request only when its largest possible cost fits what is left of
 * the budget (or it runs alone, see ReservationRule), atomically: concurrent requests never
 * overshoot together. In memory for one instance; in Redis for several.
 */
export interface BudgetStore {
  reserve(account: BudgetAccount, nanoUsd: number, rule: ReservationRule): Promise<Reservation>;
  /** Replaces a reservation by the real cost (0 when nothing was spent). Called once per hold. */
  settle(account: BudgetAccount, hold: Hold, actualNanoUsd: number): void;
}

/** Whether a reservation of `nanoUsd` is let in, with `counted` (spend plus reservations) and `out` reservations held. */
export function admitsReservation(rule: ReservationRule, counted: number, out: number, nanoUsd: number, limit: number): boolean {
  const fits = counted + nanoUsd <= limit;
  const alone = out === 0 && counted < limit;
  return rule === 'fit' ? fits : rule === 'alone' ? alone : fits || alone;
}

interface Counter {
  /** Spend plus the reservations out. */
  counted: number;
  /** Reservations out. */
  out: number;
  /** What they hold. */
  held: number;
}

/** Budgets for one instance: counters in memory, each started from the ledger the first time it is used. */
export class MemoryBudgetStore implements BudgetStore {
  readonly #counters = new Map<string, Counter>();
  readonly #loading = new Map<string, Promise<void>>();

  async reserve(account: BudgetAccount, nanoUsd: number, rule: ReservationRule): Promise<Reservation> {
    const id = `${account.keyId}:${account.periodStart}`;
    if (!this.#counters.has(id)) {
      let loading = this.#loading.get(id);
      if (loading === undefined) {
        loading = account.spentInLedger().then((spent) => {
          if (!this.#counters.has(id)) this.#counters.set(id, { counted: spent, out: 0, held: 0 });
        });
        this.#loading.set(id, loading);
        void loading.finally(() => this.#loading.delete(id)).catch(() => undefined);
      }
      await loading;
    }
    // From here to the update nothing awaits: the check and the add are one step.
    const counter = this.#counters.get(id)!;
    if (!admitsReservation(rule, counter.counted, counter.out, nanoUsd, account.limitNanoUsd)) {
      return { ok: false, spentNanoUsd: counter.counted - counter.held, heldNanoUsd: counter.held };
    }
    counter.counted += nanoUsd;
    counter.out += 1;
    counter.held += nanoUsd;
    return { ok: true, hold: { id: '', nanoUsd } };
  }

  settle(account: BudgetAccount, hold: Hold, actualNanoUsd: number): void {
    const counter = this.#counters.get(`${account.keyId}:${account.periodStart}`);
    if (counter === undefined) return;
    counter.counted += actualNanoUsd - hold.nanoUsd;
    counter.out -= 1;
    counter.held -= hold.nanoUsd;
  }
}
