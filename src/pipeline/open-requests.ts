import { GatewayError } from '../canonical/index.js';
import type { StartedRequest } from './start-request.js';

/** The error requests still open when the gateway shuts down end with: retryable, 503 (Anthropic's 529 `overloaded_error`). */
export function shuttingDown(): GatewayError {
  return new GatewayError({
    code: 'SHUTTING_DOWN',
    message: 'The gateway is shutting down; retry the request.',
  });
}

/**
 * The generation requests being answered, so that a shutdown can end them in their callers'
 * protocols (`interrupt`) instead of cutting their connections. Once interrupted, it interrupts
 * every request added later too: the gateway is going away.
 */
export class OpenRequests {
  // An array, each request holding its place in it (`StartedRequest.openAt`): adding and removing
  // touch one slot, where a Set hashes every request and grows a table of removed entries.
  readonly #open: StartedRequest[] = [];
  #interruption: GatewayError | undefined;

  /** Tracks `started` until `delete`; throws the interruption when the gateway was already interrupted. */
  add(started: StartedRequest): void {
    if (this.#interruption !== undefined) {
      started.interrupt(this.#interruption);
      throw this.#interruption;
    }
    started.openAt = this.#open.length;
    this.#open.push(started);
  }

  delete(started: StartedRequest): void {
    const at = started.openAt;
    if (at === -1 || this.#open[at] !== started) return;
    // The last request takes the freed place.
    const last = this.#open.pop()!;
    if (last !== started) {
      this.#open[at] = last;
      last.openAt = at;
    }
    started.openAt = -1;
  }

  /** How many requests are open, and how many of them are streams that began (for metrics). */
  counts(): { requests: number; streams: number } {
    let streams = 0;
    for (const started of this.#open) if (started.streaming) streams += 1;
    return { requests: this.#open.length, streams };
  }

  /** Interrupts every open request, and every one added from now on, with `error`; returns how many were open. */
  interrupt(error: GatewayError): number {
    this.#interruption ??= error;
    const open = this.#open.splice(0);
    for (const started of open) {
      started.openAt = -1;
      started.interrupt(this.#interruption);
    }
    return open.length;
  }
}
