import type { GatewayError } from '../canonical/index.js';
import type { Logger } from '../logger.js';

/** How long identical failures are counted after the first is logged, before a summary line. */
export const REPEAT_WINDOW_MS = 10_000;

/** Distinct failures tracked at once; past it, failures are logged as they come. */
const MOST_TRACKED = 1_000;

interface Seen {
  code: string;
  message: string;
  /** Failures since the logged one. */
  repeated: number;
}

/**
 * Logs failed requests at warn level, once per distinct failure (code and message) per window:
 * an upstream that answers 503 to every request at 64 connections gives one line and then a
 * count every 10 s, not a line per request.
 */
export class RepeatedErrorLog {
  readonly #logger: Logger;
  readonly #windowMs: number;
  #seen = new Map<string, Seen>();
  #timer: NodeJS.Timeout | undefined;

  constructor(logger: Logger, windowMs = REPEAT_WINDOW_MS) {
    this.#logger = logger;
    this.#windowMs = windowMs;
  }

  /** Logs `error` for `requestId`, unless the same failure was logged in this window (then it is counted). */
  warn(requestId: string, error: GatewayError, prefix = ''): void {
    const key = `${error.code}\u0000${prefix}${error.message}`;
    const seen = this.#seen.get(key);
    if (seen !== undefined) {
      seen.repeated++;
      return;
    }
    if (this.#seen.size < MOST_TRACKED) {
      this.#seen.set(key, { code: error.code, message: `${prefix}${error.message}`, repeated: 0 });
      this.#timer ??= setTimeout(() => this.flush(), this.#windowMs).unref();
    }
    this.#logger.warn({ requestId, code: error.code }, `${prefix}${error.message}`);
  }

  /** Ends the window: one line per failure that repeated, with its count. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const seen = this.#seen;
    this.#seen = new Map();
    for (const entry of seen.values()) {
      if (entry.repeated === 0) continue;
      this.#logger.warn(
        { code: entry.code, repeated: entry.repeated, windowMs: this.#windowMs },
        `${entry.message} (repeated ${entry.repeated} more times in ${this.#windowMs / 1000} s)`,
      );
    }
  }
}

const logs = new WeakMap<Logger, RepeatedErrorLog>();

/** The one RepeatedErrorLog of a logger: every endpoint of a gateway shares its windows. */
export function repeatedErrorLogOf(logger: Logger): RepeatedErrorLog {
  let log = logs.get(logger);
  if (log === undefined) logs.set(logger, (log = new RepeatedErrorLog(logger)));
  return log;
}
