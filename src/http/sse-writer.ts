import { once } from 'node:events';
import { requestIdHeaders } from './send-json.js';
import type { HttpResponse } from './types.js';

/**
 * Starts an SSE answer with its opening events (headers and events in one write). `no-transform`
 * keeps compression middleware from buffering the stream, `X-Accel-Buffering: no` does the same
 * for nginx.
 */
export async function startSse(res: HttpResponse, requestId: string, opening: string): Promise<void> {
  const headers = {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  };
  if (res.destroyed) return; // the caller left during the read-ahead
  res.writeHead(200, requestIdHeaders(headers, requestId));
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

function drained(res: HttpResponse): Promise<unknown> {
  return Promise.race([once(res, 'drain'), once(res, 'close')]);
}

/**
 * Writes one chunk of SSE text. Returns a promise only when the socket's buffer is full (it
 * resolves at 'drain' or 'close'): most events need no await, and no promise per event.
 */
export function writeSse(res: HttpResponse, text: string): Promise<unknown> | undefined {
  if (text === '' || res.writableEnded || res.destroyed) return undefined;
  return res.write(text) ? undefined : drained(res);
}
