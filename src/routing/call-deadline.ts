import { GatewayError } from '../canonical/index.js';
import { attemptContext, RequestAbort, type UpstreamWatch } from '../providers/transport/cancellation.js';
import type { ProviderContext } from '../providers/types.js';
import type { EventReader, StreamBatch } from './event-reader.js';
import type { ResolvedTimeouts } from './timeouts.js';

type Limit = 'connect' | 'first-token' | 'idle' | 'total';

const seconds = (ms: number) => `${ms / 1000} s`;

function timeoutError(limit: Limit, ms: number, model: string, provider: string): GatewayError {
  switch (limit) {
    case 'connect':
      return new GatewayError({
        code: 'UPSTREAM_CONNECT_TIMEOUT',
        message: `The provider '${provider}' could not be connected to within ${seconds(ms)} (timeouts.connectMs).`,
      });
    case 'first-token':
      return new GatewayError({
        code: 'UPSTREAM_FIRST_TOKEN_TIMEOUT',
        message: `The model '${model}' (provider '${provider}') wrote nothing within ${seconds(ms)} (timeouts.firstTokenMs).`,
      });
    case 'idle':
      return new GatewayError({
        code: 'UPSTREAM_IDLE_TIMEOUT',
        message: `The model '${model}' (provider '${provider}') went silent for ${seconds(ms)} in the middle of its answer (timeouts.idleMs).`,
      });
    case 'total':
      return new GatewayError({
        code: 'UPSTREAM_TOTAL_TIMEOUT', // the call's time is spent
        message: `The model '${model}' (provider '${provider}') did not finish its answer within ${seconds(ms)} (timeouts.totalMs).`,
      });
  }
}

/**
 * The timeouts of one upstream call: connect, first output, idle gap after it, total. One timer
 * per call, set for the earliest limit that can expire and moved on when it fires early (activity
 * only notes the time: no timer work per read). When a limit passes, the call's own cancellation
 * fires — the built-in transport then closes its connection at once — and the call fails with
 * that limit's 504 (`expired`), whatever error the cancelled provider gave.
 */
export class CallDeadline implements UpstreamWatch {
  /** The context to call the provider with: cancelled at a timeout, and with the request. */
  readonly context: ProviderContext;
  /** The limit the call ran into, once it did. */
  expired: GatewayError | undefined;
  readonly #abort = new RequestAbort();
  readonly #unlink: () => void;
  readonly #limits: ResolvedTimeouts;
  readonly #model: string;
  readonly #provider: string;
  readonly #totalMs: number;
  readonly #totalBy: number;
  #connectBy = Infinity;
  #firstTokenBy: number;
  /** Whether the stream's output began: the idle limit applies. */
  #streaming = false;
  /**
   * Since when a read of the streaming answer waits for the upstream (0 while none does): the idle
   * clock runs only then, so a client that reads slowly (backpressure) is not taken for a silent upstream.
   */
  #readingSince = 0;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires. */
  #armedFor = 0;

  /** `stream`: the first-output and idle limits apply; otherwise connect and total only. */
  constructor(context: ProviderContext, limits: ResolvedTimeouts, stream: boolean, labels: { model: string; provider: string }) {
    const now = Date.now();
    this.#limits = limits;
    this.#model = labels.model;
    this.#provider = labels.provider;
    this.#totalMs = stream ? limits.streamTotalMs : limits.answerTotalMs;
    this.#totalBy = now + this.#totalMs;
    this.#firstTokenBy = stream ? now + limits.firstTokenMs : Infinity;
    this.#abort.watch = this;
    const attempt = attemptContext(context, this.#abort);
    this.context = attempt.context;
    this.#unlink = attempt.unlink;
    // Set for the connect limit first: a built-in transport starts connecting at once.
    this.#arm(Math.min(now + limits.connectMs, this.#firstTokenBy, this.#totalBy) - now);
  }

  connecting(): void {
    const now = Date.now();
    this.#connectBy = now + this.#limits.connectMs;
    // Late (a provider that began its call after the timer moved on): the timer comes back for it.
    if (this.#connectBy < this.#armedFor && this.expired === undefined) {
      clearTimeout(this.#timer);
      this.#arm(this.#connectBy - now);
    }
  }

  connected(): void {
    this.#connectBy = Infinity;
  }

  /** The stream's first output was read: from now on the idle limit applies. */
  outputStarted(): void {
    this.#firstTokenBy = Infinity;
    this.#streaming = true;
  }

  /** Ends the watch (the call finished or was left). */
  done(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = 0;
    this.#abort.watch = undefined;
    this.#unlink();
  }

  /** `reader` whose reads fail with the expired limit rather than the cancellation it caused, and whose `stop` ends the watch. */
  guard(reader: EventReader): EventReader {
    const onBatch = (batch: StreamBatch | undefined) => {
      this.#readingSince = 0;
      if (this.expired !== undefined) throw this.expired;
      return batch;
    };
    const onFailure = (error: unknown): never => {
      throw this.expired ?? error;
    };
    const guarded: { -readonly [K in keyof EventReader]: EventReader[K] } = {
      next: () => {
        if (this.#streaming) this.#readingSince = Date.now();
        return reader.next().then(onBatch, onFailure);
      },
      stop: async () => {
        try {
          await reader.stop();
        } finally {
          this.done();
        }
      },
    };
    if (reader.fail !== undefined) guarded.fail = reader.fail;
    return guarded;
  }

  /**
   * The call's outcome, with a cancellation caused by a timeout reported as that timeout. Not
   * `async`: one reaction, no async frame (hot-path rule 2, docs/architecture.md#hot-path-rules).
   */
  settle<T>(call: Promise<T>): Promise<T> {
    return call.then(
      (value) => {
        this.done();
        if (this.expired !== undefined) throw this.expired;
        return value;
      },
      (error: unknown) => {
        this.done();
        throw this.expired ?? error;
      },
    );
  }

  #arm(delay: number): void {
    this.#armedFor = Date.now() + delay;
    this.#timer = setTimeout(onTimer, Math.max(1, delay), this);
    this.#timer.unref();
  }

  /** The timer fired: the limit that passed, or the timer set again for the next one. */
  check(): void {
    this.#timer = undefined;
    if (this.expired !== undefined) return;
    const now = Date.now();
    // No read waiting: looked at again an idle interval from now, in case one begins.
    const idleBy = !this.#streaming
      ? Infinity
      : this.#readingSince === 0
        ? now + this.#limits.idleMs
        : this.#readingSince + this.#limits.idleMs;
    const passed: [Limit, number] | undefined =
      now >= this.#connectBy
        ? ['connect', this.#limits.connectMs]
        : now >= this.#firstTokenBy
          ? ['first-token', this.#limits.firstTokenMs]
          : now >= idleBy
            ? ['idle', this.#limits.idleMs]
            : now >= this.#totalBy
              ? ['total', this.#totalMs]
              : undefined;
    if (passed === undefined) {
      this.#arm(Math.min(this.#connectBy, this.#firstTokenBy, idleBy, this.#totalBy) - now);
      return;
    }
    this.expired = timeoutError(passed[0], passed[1], this.#model, this.#provider);
    this.#abort.abort();
  }
}

function onTimer(deadline: CallDeadline): void {
  deadline.check();
}
