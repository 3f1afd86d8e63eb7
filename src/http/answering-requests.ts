/**
 * Counts the requests being answered, so that a shutdown can wait for them (and for their
 * records) before the ledger closes. A count per cohort, not a Set of their promises: a Set hashed
 * every request's promise and grew a new table as requests came and went, a table that lived long
 * enough to be promoted to the old generation (sampled under load: about 75 bytes a request).
 */
export class AnsweringRequests {
  #cohort = new Cohort();

  /** A request began: call `ended()` on what this returns once its answer is settled. */
  begin(): Cohort {
    const cohort = this.#cohort;
    cohort.open += 1;
    return cohort;
  }

  /** Resolves once every request begun before this call has ended; those begun after are not waited for. */
  settled(): Promise<void> {
    const cohort = this.#cohort;
    this.#cohort = new Cohort();
    return cohort.drained();
  }
}

/** The requests begun between two `settled()` calls. */
export class Cohort {
  open = 0;
  #wake: (() => void) | undefined = undefined;

  ended(): void {
    this.open -= 1;
    if (this.open === 0) this.#wake?.();
  }

  drained(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }
}
