import { EventEmitter } from 'node:events';
import type { ProviderContext } from './types.js';

/**
 * One request's cancellation. Listening to an `AbortSignal` (an EventTarget) costs several
 * microseconds per request on Node 20–24, so the built-in adapters hand undici this
 * EventEmitter instead (undici takes either), and the `AbortSignal` an adapter sees in
 * `context.signal` is only made when something reads it.
 */
export class RequestAbort extends EventEmitter {
  aborted = false;
  #controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort();
    this.emit('abort');
  }
}

const requestAbortKey = Symbol('switchyard.requestAbort');

type WithRequestAbort = ProviderContext & { [requestAbortKey]?: RequestAbort };

/** A provider context whose `signal` is made from `abort` on first read. */
export function createProviderContext(abort: RequestAbort, fields: Omit<ProviderContext, 'signal'>): ProviderContext {
  // Fields one by one rather than spread: this runs on every request.
  const context: WithRequestAbort = {
    requestId: fields.requestId,
    gatewayModel: fields.gatewayModel,
    logger: fields.logger,
    get signal() {
      return abort.signal;
    },
    [requestAbortKey]: abort,
  };
  if (fields.clientHeaders !== undefined) context.clientHeaders = fields.clientHeaders;
  return context;
}

/** What to hand undici as `signal`: the cheap emitter when the gateway made the context, else the context's signal. */
export function upstreamSignal(context: ProviderContext): AbortSignal | RequestAbort {
  return (context as WithRequestAbort)[requestAbortKey] ?? context.signal;
}

/** A call's cancellation as the upstream layer takes it: an AbortSignal, or the gateway's emitter. */
export type Cancellation = AbortSignal | RequestAbort;

/** Calls `onAbort` when `signal` aborts; returns the unsubscribe. */
export function listenForAbort(signal: Cancellation, onAbort: () => void): () => void {
  if (signal instanceof RequestAbort) {
    signal.once('abort', onAbort);
    return () => signal.removeListener('abort', onAbort);
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
