import type { IncomingHttpHeaders } from 'node:http';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import { answerTooLarge, ERROR_BODY_MAX } from './answer-limits.js';
import { listenForAbort, RequestAbort, type Cancellation } from './cancellation.js';

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
 * so the status is not lost. Bounded: a success past `maxBytes` fails (502) and closes the
 * connection; an error body is kept only up to ERROR_BODY_MAX (its status is what matters).
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
    private readonly maxBytes: number,
  ) {
    this.#stopListening = listenForAbort(signal, () => this.#abort());
    if (signal instanceof RequestAbort) signal.watch?.connecting();
  }

  #abort(): void {
    const controller = this.#controller;
    if (controller !== undefined) {
      controller.abort(new undiciErrors.RequestAbortedError());
      return;
    }
    // Still waiting for a connection: fail now; onRequestStart aborts the request before it is sent.
    if (this.#settled) return;
    this.#settle();
    this.reject(new undiciErrors.RequestAbortedError());
  }

  #settle(): void {
    this.#settled = true;
    this.#stopListening();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.signal.aborted) controller.abort(new undiciErrors.RequestAbortedError());
    else if (this.signal instanceof RequestAbort) this.signal.watch?.connected();
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx: the real answer follows
    this.#status = status;
    this.#headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#status >= 400 && this.#size >= ERROR_BODY_MAX) {
      // Enough of an error body: answer with it and close the connection on the rest.
      this.#resolveWithText();
      controller.abort(new undiciErrors.RequestAbortedError());
    } else if (this.#size > this.maxBytes) {
      this.#settle();
      this.#chunks = [];
      this.reject(answerTooLarge(this.maxBytes));
      controller.abort(new undiciErrors.RequestAbortedError());
    }
  }

  onResponseEnd(): void {
    if (!this.#settled) this.#resolveWithText();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.#settled) return;
    if (this.#status >= 400 && !this.signal.aborted) {
      this.#resolveWithText();
      return;
    }
    this.#settle();
    this.reject(error);
  }

  /** Settles with the body's text; a failure to make it (no memory for a string that long) rejects instead of vanishing. */
  #resolveWithText(): void {
    this.#settle();
    let text: string;
    try {
      text = this.#text();
    } catch (error) {
      this.reject(error as Error);
      return;
    } finally {
      this.#chunks = [];
    }
    this.resolve({ status: this.#status, headers: this.#headers, text });
  }

  #text(): string {
    const chunks = this.#chunks;
    const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, this.#size).toString('utf8');
    return this.#status >= 400 && text.length > ERROR_BODY_MAX ? text.slice(0, ERROR_BODY_MAX) : text;
  }
}

/** Sends one request through `dispatcher` and resolves with the whole answer. */
export function collectAnswer(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: Cancellation,
  maxBytes: number,
): Promise<CollectedAnswer> {
  if (signal.aborted) return Promise.reject(new undiciErrors.RequestAbortedError());
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new AnswerCollector(signal, resolve, reject, maxBytes));
  });
}
