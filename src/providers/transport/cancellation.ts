import type { Logger, ProviderContext, UpstreamResponseInfo } from '../types.js';

/** How a call reaches its connection: the clock of the connect timeout. */
export interface UpstreamWatch {
  /** The call was handed to the connection pool. */
  connecting(): void;
  /** The call is on a connection: a new one connected, or a kept-alive one was free. */
  connected(): void;
}

/**
 * One request's cancellation: a plain list of callbacks the built-in adapters listen to, where an
 * `AbortSignal` (an EventTarget) or an EventEmitter would be a listener per request (hot-path rule 3,
 * docs/architecture.md#hot-path-rules). The `AbortSignal` an adapter sees in `context.signal` is only
 * made when something reads it.
 */
export class RequestAbort {
  aborted = false;
  /** Told by the built-in transport when a call goes to its connection pool and when it is on a connection. */
  watch: UpstreamWatch | undefined = undefined;
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Calls `listener` once, on the abort; returns the unsubscribe. */
  listen(listener: () => void): () => void {
    (this.#listeners ??= []).push(listener);
    return () => {
      const listeners = this.#listeners;
      const index = listeners === undefined ? -1 : listeners.indexOf(listener);
      if (index !== -1) listeners!.splice(index, 1);
    };
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
  }
}

/**
 * The provider context the gateway makes for each request. A class, so `signal` is a getter on
 * the prototype rather than an accessor defined on every request's object: hot-path rule 4
 * (docs/architecture.md#hot-path-rules).
 */
class GatewayProviderContext implements ProviderContext {
  readonly requestId: string;
  readonly gatewayModel: string;
  readonly logger: Logger;
  // Declared, not initialised: absent rather than undefined when the caller sent none.
  declare readonly clientHeaders?: Readonly<Record<string, string>>;
  declare readonly reportUpstream?: (info: UpstreamResponseInfo) => void;
  declare readonly outputTokenLimit?: number;
  readonly #abort: RequestAbort;

  constructor(abort: RequestAbort, fields: Omit<ProviderContext, 'signal'>) {
    this.requestId = fields.requestId;
    this.gatewayModel = fields.gatewayModel;
    this.logger = fields.logger;
    if (fields.clientHeaders !== undefined) this.clientHeaders = fields.clientHeaders;
    if (fields.reportUpstream !== undefined) this.reportUpstream = fields.reportUpstream;
    if (fields.outputTokenLimit !== undefined) this.outputTokenLimit = fields.outputTokenLimit;
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The gateway's own cancellation behind `context`, when the gateway made it. */
  static cancellationOf(context: ProviderContext): RequestAbort | undefined {
    return #abort in context ? context.#abort : undefined;
  }
}

/** A provider context whose `signal` is made from `abort` on first read. */
export function createProviderContext(abort: RequestAbort, fields: Omit<ProviderContext, 'signal'>): ProviderContext {
  return new GatewayProviderContext(abort, fields);
}

/**
 * `context` for one upstream call that `abort` cancels: the same fields, and `abort` fires with the
 * context's own cancellation too. Returns the context and the unlink from that cancellation.
 */
export function attemptContext(context: ProviderContext, abort: RequestAbort): { context: ProviderContext; unlink: () => void } {
  const unlink = listenForAbort(upstreamSignal(context), () => abort.abort());
  // The constructor copies only the fields a context has, so the context itself serves as them.
  return { context: new GatewayProviderContext(abort, context), unlink };
}

/** What to hand the upstream layer as `signal`: the cheap canceller when the gateway made the context, else the context's signal. */
export function upstreamSignal(context: ProviderContext): AbortSignal | RequestAbort {
  return GatewayProviderContext.cancellationOf(context) ?? context.signal;
}

/** A call's cancellation as the upstream layer takes it: an AbortSignal, or the gateway's canceller. */
export type Cancellation = AbortSignal | RequestAbort;

/** Calls `onAbort` when `signal` aborts; returns the unsubscribe. */
export function listenForAbort(signal: Cancellation, onAbort: () => void): () => void {
  if (signal instanceof RequestAbort) return signal.listen(onAbort);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
