import { once } from 'node:events';
import { requestIdHeaders } from './send-json.js';
import type { HttpResponse } from './types.js';

/**
 * Starts an SSE answer. `no-transform` keeps compression middleware from buffering the stream,
 * `X-Accel-Buffering: no` does the same for nginx.
 */
export function startSse(res: HttpResponse, requestId: string): void {
  const headers = {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  };
  res.writeHead(200, requestIdHeaders(headers, requestId));
  res.flushHeaders();
}

/** Writes one chunk of SSE text, waiting for the socket to drain when its buffer is full. */
export async function writeSse(res: HttpResponse, text: string): Promise<void> {
  if (text === '' || res.writableEnded || res.destroyed) return;
  if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}
