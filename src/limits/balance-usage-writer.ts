import type { StorageDb } from '../storage/schema.js';
import { appendBalanceRows, type BalanceRow } from './balance-ledger.js';

type UsageRow = Omit<BalanceRow, 'id'>;

/** What one account's requests took since the last write. */
interface Pending {
  nanoUsd: number;
  requests: number;
  firstAt: number;
  lastRequestId: string;
}

/**
 * Writes the balance ledger's usage rows off the request path, one row per account per interval:
 * what a request cost is already counted in the balance counters when it settles, and its detail
 * is its usage-ledger row; the balance ledger gets the sum (`N requests`, the last request's id),
 * so a busy account costs one insert per interval, not one per request. Rows that fail to be
 * written are kept and tried again.
 */
export class BalanceUsageWriter {
  readonly #db: () => Promise<StorageDb>;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  #pending = new Map<string, Pending>();
  /** Rows made from `#pending` that failed to be written: tried again first. */
  #failed: UsageRow[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> | undefined;

  constructor(db: () => Promise<StorageDb>, intervalMs: number, onError: (error: unknown) => void) {
    this.#db = db;
    this.#intervalMs = intervalMs;
    this.#onError = onError;
  }

  /** Counts one request's real cost against its account. */
  add(accountId: string, nanoUsd: number, requestId: string, at: number): void {
    const pending = this.#pending.get(accountId);
    if (pending === undefined) this.#pending.set(accountId, { nanoUsd, requests: 1, firstAt: at, lastRequestId: requestId });
    else {
      pending.nanoUsd += nanoUsd;
      pending.requests += 1;
      pending.lastRequestId = requestId;
    }
    this.#schedule();
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#intervalMs);
  }

  /** Writes what waits; resolves when written (or failed and kept for the next try). */
  async flush(): Promise<void> {
    while (this.#flushing !== undefined) await this.#flushing;
    const rows = [
      ...this.#failed,
      ...[...this.#pending].map(
        ([accountId, pending]): UsageRow => ({
          accountId,
          at: pending.firstAt,
          kind: 'usage',
          nanoUsd: -pending.nanoUsd,
          actorId: undefined,
          note: `${pending.requests} request${pending.requests === 1 ? '' : 's'}`,
          requestId: pending.lastRequestId,
        }),
      ),
    ];
    this.#failed = [];
    this.#pending = new Map();
    if (rows.length === 0) return;
    this.#flushing = (async () => {
      try {
        for (let start = 0; start < rows.length; start += 500) await appendBalanceRows(await this.#db(), rows.slice(start, start + 500));
      } catch (error) {
        this.#failed = rows;
        this.#onError(error);
        this.#schedule();
      }
    })();
    await this.#flushing;
    this.#flushing = undefined;
  }

  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
