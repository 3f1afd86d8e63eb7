interface Pending {
  /** When the call is given up (epoch ms). */
  readonly by: number;
  /** Undefined once the call settled (or was given up). */
  reject: ((error: unknown) => void) | undefined;
}

/** The longest delay a Node timer takes (a longer one fires at once); a later deadline is waited for in steps. */
const MAX_DELAY_MS = 2_147_483_647;

/** Settled calls passed over at the head at most before the queue drops them (an array shift per call would copy it). */
const COMPACT_AT = 4096;

/**
 * The deadline of every call to the limits' Redis, on one timer. Every call may take the same
 * time, so calls expire in the order they were made: one timer, set for the oldest call still out,
 * serves them all: hot-path rule 3 (docs/architecture.md#hot-path-rules).
 */
export class StoreDeadlines {
  readonly #ms: number;
  /** The store named in the error, e.g. `the limits store`. */
  readonly #store: string;
  readonly #pending: Pending[] = [];
  /** The index of the oldest entry not yet passed over. */
  #head = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #expire = () => this.#expireDue();
  /**
   * The timer runs before the loop reads its sockets: after the process stalled (a long GC, a
   * synchronous step) past a deadline, an answer that came in time may be waiting unread. The
   * calls are given up in the check phase, after the poll phase has read it. Until then `#timer`
   * still holds the fired timer, so no other is set.
   */
  readonly #fired = () => void setImmediate(this.#expire);

  constructor(ms: number, store = 'the limits store') {
    this.#ms = ms;
    this.#store = store;
  }

  /** Calls held in the queue: those still out, and settled ones not yet passed over (tests). */
  get queued(): number {
    return this.#pending.length - this.#head;
  }

  /** `value` itself when it is not a promise; else a promise that settles as it does, or rejects after the deadline. */
  within<T>(value: T | Promise<T>): T | Promise<T> {
    if (!(value instanceof Promise)) return value;
    return new Promise<T>((resolve, reject) => this.watch(value, resolve, reject));
  }

  /**
   * Calls `answered` with what `call` settles to, or `failed` with its error or, once the deadline
   * passes, the deadline's; only one of them, once. Callbacks, not a promise of its own: on the
   * limits' hot path a promise more per call is a microtask more (hot-path rule 2).
   */
  watch<T>(call: Promise<T>, answered: (value: T) => void, failed: (error: unknown) => void): void {
    // Calls mostly settle in the order they were made: passing over the settled ones at the head
    // now keeps the queue about as long as the calls still out, not every call of the last `ms`.
    this.#passSettled();
    const pending: Pending = { by: Date.now() + this.#ms, reject: failed };
    this.#pending.push(pending);
    // Unref'd: a call out on a socket keeps the process alive by itself.
    this.#timer ??= setTimeout(this.#fired, Math.min(this.#ms, MAX_DELAY_MS)).unref();
    call.then(
      (value) => {
        if (pending.reject === undefined) return;
        pending.reject = undefined;
        answered(value);
      },
      (error: unknown) => {
        if (pending.reject === undefined) return;
        pending.reject = undefined;
        failed(error);
      },
    );
  }

  /** Moves the head past settled calls, and drops what it passed once there is enough of it. */
  #passSettled(): void {
    const pending = this.#pending;
    let head = this.#head;
    while (head < pending.length && pending[head]!.reject === undefined) head++;
    if (head === pending.length) {
      pending.length = 0;
      head = 0;
    } else if (head >= COMPACT_AT) {
      pending.splice(0, head);
      head = 0;
    }
    this.#head = head;
  }

  /** Rejects the calls whose deadline passed, then waits for the oldest one still out. */
  #expireDue(): void {
    this.#timer = undefined;
    const now = Date.now();
    const pending = this.#pending;
    let head = this.#head;
    for (; head < pending.length; head++) {
      const call = pending[head]!;
      if (call.reject === undefined) continue;
      if (call.by > now) break;
      const reject = call.reject;
      call.reject = undefined;
      reject(new Error(`${this.#store} did not answer within ${this.#ms} ms`));
    }
    this.#head = head;
    this.#passSettled();
    head = this.#head;
    if (head < pending.length) this.#timer = setTimeout(this.#fired, Math.min(MAX_DELAY_MS, Math.max(1, pending[head]!.by - now))).unref();
  }
}
