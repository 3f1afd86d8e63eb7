import { answerHeaderList } from './answer-headers.js';
import type { HttpResponse } from './types.js';

/**
 * Starts an SSE answer with its opening events (headers and events in one write). `no-transform`
 * keeps compression middleware from buffering the stream, `X-Accel-Buffering: no` does the same
 * for nginx.
 */
export async function startSse(res: HttpResponse, requestId: string, opening: string): Promise<void> {
  if (res.destroyed) return; // the caller left during the read-ahead
  const headers = answerHeaderList(
    res,
    [
      'Content-Type',
      'text/event-stream; charset=utf-8',
      'Cache-Control',
      'no-cache, no-transform',
      'Connection',
      'keep-alive',
      'X-Accel-Buffering',
      'no',
    ],
    requestId,
  );
  res.writeHead(200, headers);
  if (opening === '') {
    res.flushHeaders();
    return;
  }
  // Node's http otherwise corks the socket until the end of the tick, and one upstream read can hold
  // a whole answer: the first event would wait until the rest of that read was translated. Our own
  // cork/uncork pair sends it now (an unpaired uncork() breaks later writes on Node 22+).
  res.cork();
  const flowing = res.write(opening);
  res.uncork();
  if (!flowing) await drained(res);
}

/**
 * Resolves at the first 'drain' or 'close' and removes both listeners then: a race of two
 * `once()` promises would leave the loser's listener behind on every backpressure episode.
 */
function drained(res: HttpResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Joined text past this size is written at once instead of at the end of the tick. */
const FLUSH_AT = 16 * 1024;

/**
 * Writes an answer's SSE events after its opening, joining the events of one tick into one write.
 * One upstream read can carry dozens of events, and with chunked encoding each `res.write` is four
 * socket writes (size line, text, CRLF), so a write per event costs more than its translation.
 * The joined text goes out from `process.nextTick`, which runs once the promise jobs that carried
 * the burst through the provider have run: a lone event (a paced stream) waits for nothing.
 */
export class SseWriter {
  readonly #res: HttpResponse;
  #pending = '';
  #scheduled = false;
  #full: Promise<unknown> | undefined;

  constructor(res: HttpResponse) {
    this.#res = res;
  }

  /**
   * Queues `text`. Returns a promise only when an earlier write found the socket's buffer full
   * (it resolves at 'drain' or 'close'): the caller awaits it before reading more.
   */
  write(text: string): Promise<unknown> | undefined {
    if (text !== '') {
      this.#pending += text;
      if (this.#pending.length >= FLUSH_AT) this.flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        process.nextTick(flushQueued, this);
      }
    }
    const full = this.#full;
    this.#full = undefined;
    return full;
  }

  /** Writes what is queued now. */
  flush(): void {
    this.#scheduled = false;
    const text = this.#pending;
    if (text === '') return;
    this.#pending = '';
    const res = this.#res;
    if (res.writableEnded || res.destroyed) return;
    if (!res.write(text)) this.#full ??= drained(res);
  }

  /** Ends the answer with what is queued. */
  end(): void {
    const text = this.#pending;
    this.#pending = '';
    if (this.#res.writableEnded) return;
    if (text === '' || this.#res.destroyed) this.#res.end();
    else this.#res.end(text);
  }
}

function flushQueued(writer: SseWriter): void {
  writer.flush();
}
