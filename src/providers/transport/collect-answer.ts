import type { IncomingHttpHeaders } from 'node:http';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import { listenForAbort, type Cancellation } from './request-abort.js';

/** A whole upstream answer: status, headers and body text. */
export interface CollectedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Collects one answer straight from undici's dispatch callbacks. undici's `request()` wraps every
 * answer in a Readable stream and reading it back costs a stream, promises and ticks per call;
 * a JSON answer only needs its bytes. Errors (network, timeouts, an abort) reject with undici's own
 * error; once an error status is known, a body that breaks off still resolves, with the text so far,
 * so the status is not lost.
 */
class AnswerCollector implements Dispatcher.DispatchHandler {
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];
  #size = 0;
  #controller: Dispatcher.DispatchController | undefined;
  readonly #stopListening: () => void;
  #settled = false;

  constructor(
    private readonly signal: Cancellation,
    private readonly resolve: (answer: CollectedAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.#stopListening = listenForAbort(signal, () => this.#abort());
  }

  #abort(): void {
    // Before the request reached a connection there is no controller yet: onRequestStart aborts it.
    this.#controller?.abort(new undiciErrors.RequestAbortedError());
  }

  #settle(): void {
    this.#settled = true;
    this.#stopListening();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.signal.aborted) controller.abort(new undiciErrors.RequestAbortedError());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx: the real answer follows
    this.#status = status;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settle();
    this.resolve({ status: this.#status, headers: this.#headers, text: this.#text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#settled) return;
    this.#settle();
    if (this.#status >= 400 && !this.signal.aborted) this.resolve({ status: this.#status, headers: this.#headers, text: this.#text() });
    else this.reject(error);
  }

  #text(): string {
    const chunks = this.#chunks;
    if (chunks.length === 1) return chunks[0]!.toString('utf8');
    return Buffer.concat(chunks, this.#size).toString('utf8');
  }
}

/** Sends one request through `dispatcher` and resolves with the whole answer. */
export function collectAnswer(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: Cancellation): Promise<CollectedAnswer> {
  if (signal.aborted) return Promise.reject(new undiciErrors.RequestAbortedError());
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new AnswerCollector(signal, resolve, reject));
  });
}
