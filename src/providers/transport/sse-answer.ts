import type { IncomingHttpHeaders } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import type { SseMessage } from '../../sse/format-sse.js';
import { answerTooLarge, ERROR_BODY_MAX } from './answer-limits.js';
import { listenForAbort, RequestAbort, type Cancellation } from './cancellation.js';
import type { UpstreamRedactor } from './upstream-redactor.js';

/** How an SSE call's answer began: its status and headers, and for an error status its whole body. */
export interface SseAnswerHead {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body text of an error status (>= 400); a success's body is read as messages. */
  errorText?: string;
}

/** Messages parsed but not yet read before the upstream is paused until the reader catches up. */
const HIGH_WATER = 64;

/** Bytes of an answer still read after its reader stopped, so its connection can be reused rather than closed. */
const DRAIN_BYTES = 64 * 1024;

const aborted = () => new undiciErrors.RequestAbortedError();

export interface SseAnswerOptions {
  /** How long the end of a complete answer may take to arrive before its connection is closed. */
  drainMs: number;
  /** Largest event (bytes read without an event completing) before the answer fails. */
  maxEventBytes: number;
  /** Masks the gateway's credentials in every message, and cleans in-band errors. */
  redactor: UpstreamRedactor;
}

/** An in-band error as each protocol sends one: Anthropic's and Responses' `error` events, `response.failed`, Chat's `{"error":…}` chunk. */
function isErrorMessage(event: string | undefined, data: string): boolean {
  if (event !== undefined) return event === 'error' || event === 'response.failed';
  return data.startsWith('{"error"') || data.startsWith('{ "error"');
}

/**
 * One upstream SSE answer, read straight from undici's dispatch callbacks into the SSE parser and
 * handed to one reader as an async iterator. undici's `request()` would put a Readable stream, its
 * async iterator and a generator between each socket read and the reader; here a read is parsed
 * where it arrives. Backpressure: past HIGH_WATER unread messages the upstream is paused.
 *
 * When the reader stops (`return`) after `complete()` — the answer's final event was read — the
 * rest of the body is drained (at most DRAIN_BYTES, `drainMs`) so the keep-alive connection is
 * reused; when it stops without, the request is aborted and the connection closed.
 */
export class SseAnswer implements Dispatcher.DispatchHandler, AsyncIterableIterator<SseMessage> {
  /** Resolves at the answer's status (after the whole body for an error status); rejects on a transport failure. */
  readonly head: Promise<SseAnswerHead>;
  #resolveHead!: (head: SseAnswerHead) => void;
  #rejectHead!: (error: Error) => void;
  #status = 0;
  #headers: IncomingHttpHeaders = {};
  #errorChunks: Buffer[] | undefined;
  #errorBytes = 0;
  /** Bytes read since the last complete event. */
  #pendingBytes = 0;

  #controller: Dispatcher.DispatchController | undefined;
  #parser: EventSourceParser;
  /**
   * Node's StringDecoder, not TextDecoder: TextDecoder goes through ICU (about 7k instructions for a
   * 190-byte chunk against 1.4k, callgrind), once per upstream read, which for a stream of tokens
   * is once per event. It keeps a leading byte order mark, which TextDecoder drops: #text drops it.
   */
  #decoder = new StringDecoder('utf8');
  #first = true;
  #queue: SseMessage[] = [];
  #next = 0;
  /** A reader waiting for a message (`next`) or for every message there is (`nextBatch`). */
  #waiting: { resolve: (result: IteratorResult<SseMessage>) => void; reject: (error: Error) => void } | undefined;
  #waitingBatch: { resolve: (batch: SseMessage[] | undefined) => void; reject: (error: Error) => void } | undefined;
  #ended = false;
  #failure: Error | undefined;
  #stopped = false;
  #complete = false;
  #drainLeft = DRAIN_BYTES;
  #drainTimer: NodeJS.Timeout | undefined;
  #stopListening: (() => void) | undefined;

  private readonly drainMs: number;

  constructor(
    private readonly signal: Cancellation,
    private readonly options: SseAnswerOptions,
    /** Maps a transport error (network, timeout, abort) to what the reader sees; `answering` once the answer's headers came. */
    private readonly mapError: (error: unknown, answering?: boolean) => Error,
  ) {
    this.drainMs = options.drainMs;
    this.head = new Promise((resolve, reject) => {
      this.#resolveHead = resolve;
      this.#rejectHead = reject;
    });
    const { redactor } = options;
    const mask = redactor.hasSecrets;
    this.#parser = createParser({
      onEvent: (event) => {
        this.#pendingBytes = 0;
        let data = mask ? redactor.maskSecrets(event.data) : event.data;
        if (isErrorMessage(event.event, data)) data = redactor.cleanErrorText(data);
        this.#queue.push(event.event === undefined ? { data } : { event: event.event, data });
      },
    });
    if (!signal.aborted) this.#stopListening = listenForAbort(signal, () => this.#abort());
    if (signal instanceof RequestAbort) signal.watch?.connecting();
  }

  #abort(): void {
    const controller = this.#controller;
    if (controller !== undefined) controller.abort(aborted());
    // Still waiting for a connection: the call fails now; onRequestStart aborts the request before it is sent.
    else this.#rejectHead(this.mapError(aborted()));
  }

  /** Marks the answer complete: a reader that stops now leaves the rest of the body to be drained. */
  complete(): void {
    this.#complete = true;
  }

  // ── undici's side ──

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.signal.aborted) controller.abort(aborted());
    else if (this.signal instanceof RequestAbort) this.signal.watch?.connected();
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return; // 1xx: the real answer follows
    this.#status = status;
    this.#headers = headers;
    if (status >= 400) this.#errorChunks = [];
    else this.#resolveHead({ status, headers });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#errorChunks !== undefined) {
      this.#errorChunks.push(chunk);
      this.#errorBytes += chunk.length;
      if (this.#errorBytes >= ERROR_BODY_MAX) {
        // Enough of an error body: its status and message are known; the rest is not read.
        this.#finish();
        this.#resolveHead({ status: this.#status, headers: this.#headers, errorText: this.#errorText() });
        controller.abort(aborted());
      }
    } else if (this.#stopped) {
      this.#drainLeft -= chunk.length;
      if (this.#drainLeft < 0) controller.abort(aborted());
    } else if (this.#failure === undefined) {
      this.#pendingBytes += chunk.length;
      this.#parser.feed(this.#text(this.#decoder.write(chunk)));
      if (this.#pendingBytes > this.options.maxEventBytes) {
        this.#failure = answerTooLarge(this.options.maxEventBytes);
        this.#parser.reset({ consume: false });
        controller.abort(aborted());
      }
      this.#wake();
      if (this.#queue.length - this.#next > HIGH_WATER) controller.pause();
    }
  }

  /** `decoded` without the byte order mark an answer may begin with (as TextDecoder would). */
  #text(decoded: string): string {
    if (!this.#first || decoded === '') return decoded;
    this.#first = false;
    return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  }

  #errorText(): string {
    const text = Buffer.concat(this.#errorChunks ?? []).toString('utf8');
    this.#errorChunks = [];
    return text.length > ERROR_BODY_MAX ? text.slice(0, ERROR_BODY_MAX) : text;
  }

  onResponseEnd(): void {
    this.#finish();
    if (this.#errorChunks !== undefined) {
      this.#resolveHead({ status: this.#status, headers: this.#headers, errorText: this.#errorText() });
      return;
    }
    this.#parser.feed(this.#text(this.#decoder.end()));
    // A final event without its blank line still counts: some servers close right after it.
    this.#parser.feed('\n\n');
    this.#ended = true;
    this.#wake();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#finish();
    if (this.#status === 0) {
      this.#rejectHead(this.mapError(error));
    } else if (this.#errorChunks !== undefined) {
      // The status is what matters; keep it even when its body broke off (unless the caller left).
      if (this.signal.aborted) this.#rejectHead(this.mapError(error));
      else this.#resolveHead({ status: this.#status, headers: this.#headers, errorText: this.#errorText() });
    } else if (!this.#stopped && this.#failure === undefined) {
      this.#failure = this.mapError(error, true);
      this.#wake();
    }
  }

  #finish(): void {
    this.#stopListening?.();
    this.#stopListening = undefined;
    if (this.#drainTimer !== undefined) clearTimeout(this.#drainTimer);
  }

  // ── the reader's side ──

  #wake(): void {
    const batch = this.#waitingBatch;
    if (batch !== undefined) {
      if (this.#next < this.#queue.length) {
        this.#waitingBatch = undefined;
        batch.resolve(this.#takeAll());
      } else if (this.#failure !== undefined) {
        this.#waitingBatch = undefined;
        batch.reject(this.#failure);
      } else if (this.#ended) {
        this.#waitingBatch = undefined;
        batch.resolve(undefined);
      }
      return;
    }
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    if (this.#next < this.#queue.length) {
      this.#waiting = undefined;
      waiting.resolve({ value: this.#take(), done: false });
    } else if (this.#failure !== undefined) {
      this.#waiting = undefined;
      waiting.reject(this.#failure);
    } else if (this.#ended) {
      this.#waiting = undefined;
      waiting.resolve({ value: undefined, done: true });
    }
  }

  #take(): SseMessage {
    const message = this.#queue[this.#next++]!;
    if (this.#next === this.#queue.length) {
      this.#queue = [];
      this.#next = 0;
      if (this.#controller?.paused) this.#controller.resume();
    }
    return message;
  }

  #takeAll(): SseMessage[] {
    const messages = this.#next === 0 ? this.#queue : this.#queue.slice(this.#next);
    this.#queue = [];
    this.#next = 0;
    if (this.#controller?.paused) this.#controller.resume();
    return messages;
  }

  /**
   * Every message parsed and not yet read, at once (one upstream read usually carries many), or
   * undefined once the answer has ended. Saves a promise per message over `next()`.
   */
  nextBatch(): Promise<SseMessage[] | undefined> {
    if (this.#next < this.#queue.length) return Promise.resolve(this.#takeAll());
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended || this.#stopped) return Promise.resolve(undefined);
    if (this.#controller?.paused) this.#controller.resume();
    return new Promise((resolve, reject) => {
      this.#waitingBatch = { resolve, reject };
    });
  }

  next(): Promise<IteratorResult<SseMessage>> {
    if (this.#next < this.#queue.length) return Promise.resolve({ value: this.#take(), done: false });
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#ended || this.#stopped) return Promise.resolve({ value: undefined, done: true });
    if (this.#controller?.paused) this.#controller.resume();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<SseMessage>> {
    if (!this.#stopped) {
      this.#stopped = true;
      this.#queue = [];
      this.#next = 0;
      if (!this.#ended && this.#failure === undefined) this.#stop();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  /** The reader left before the body ended: drain the rest when the answer was complete, else close. */
  #stop(): void {
    const controller = this.#controller;
    if (controller === undefined) return;
    if (!this.#complete) {
      controller.abort(aborted());
      return;
    }
    this.#drainTimer = setTimeout(() => controller.abort(aborted()), this.drainMs);
    this.#drainTimer.unref();
    if (controller.paused) controller.resume();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
