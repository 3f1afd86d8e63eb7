/**
 * What each account was ever credited, cached in process: a request on an account with a balance
 * reads it without a query while fresh. A credit made here or on another instance (told through
 * Redis) makes it forget the account, so a top-up counts at once; without Redis, within the TTL.
 */
export class AccountCredits {
  readonly #entries = new Map<string, { nanoUsd: number; at: number }>();
  readonly #loading = new Map<string, Promise<number>>();
  readonly #read: (accountId: string) => Promise<number>;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(read: (accountId: string) => Promise<number>, ttlMs: number, now: () => number = Date.now) {
    this.#read = read;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** The account's credits: synchronously while cached, else read once however many requests ask. */
  get(accountId: string): number | Promise<number> {
    const entry = this.#entries.get(accountId);
    if (entry !== undefined && this.#now() - entry.at < this.#ttlMs) return entry.nanoUsd;
    let loading = this.#loading.get(accountId);
    if (loading === undefined) {
      const started = this.#now();
      loading = this.#read(accountId)
        .then((nanoUsd) => {
          // A forget while it was read: the answer may predate the credit, so it is not kept.
          if (this.#loading.get(accountId) === loading) this.#entries.set(accountId, { nanoUsd, at: started });
          return nanoUsd;
        })
        .finally(() => {
          if (this.#loading.get(accountId) === loading) this.#loading.delete(accountId);
        });
      this.#loading.set(accountId, loading);
    }
    return loading;
  }

  forget(accountId: string): void {
    this.#entries.delete(accountId);
    this.#loading.delete(accountId);
  }
}
