/** How often a waiting request looks for a slot freed by another instance (a local release wakes it at once). */
const POLL_MS = 50;

interface Waiter {
  wake: (() => void) | undefined;
}

/**
 * Requests of this process waiting for a concurrency slot, first come first served per limit: only
 * the oldest waiter of a limit tries to take a slot; a slot given back here wakes it at once, and
 * it also looks every 50 ms (slots freed by other instances).
 */
export class SlotQueue {
  readonly #queues = new Map<string, Waiter[]>();

  /**
   * Tries `attempt` as the oldest waiter of `key`, until it returns true or the deadline passes
   * (then false), or `gone` fires (then false at once).
   */
  async waitFor(
    key: string,
    deadline: number,
    attempt: () => Promise<boolean>,
    onGone: ((listener: () => void) => () => void) | undefined,
  ): Promise<boolean> {
    const me: Waiter = { wake: undefined };
    let queue = this.#queues.get(key);
    if (queue === undefined) this.#queues.set(key, (queue = []));
    queue.push(me);
    let gone = false;
    const stopListening = onGone?.(() => {
      gone = true;
      me.wake?.();
    });
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0 || gone) return false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(
            () => {
              me.wake = undefined;
              resolve();
            },
            Math.min(POLL_MS, left),
          );
          me.wake = () => {
            clearTimeout(timer);
            me.wake = undefined;
            resolve();
          };
        });
        if (gone) return false;
        if (queue[0] === me && (await attempt())) return true;
      }
    } finally {
      stopListening?.();
      queue.splice(queue.indexOf(me), 1);
      if (queue.length === 0) this.#queues.delete(key);
      // The next in line may find a slot too.
      else queue[0]!.wake?.();
    }
  }

  /** A slot of `key` was given back in this process: its oldest waiter tries at once. */
  released(key: string): void {
    this.#queues.get(key)?.[0]?.wake?.();
  }

  get waiting(): number {
    let count = 0;
    for (const queue of this.#queues.values()) count += queue.length;
    return count;
  }
}
