import { once } from 'node:events';
import type { HttpResponse } from './types.js';

/**
 * Starts an SSE answer. `no-transform` keeps compression middleware from buffering the stream,
 * `X-Accel-Buffering: no` does the same for nginx.
 */
export function startSse(res: HttpResponse): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
}

/** Writes one chunk of SSE text, waiting for the socket to drain when its buffer is full. */
export async function writeSse(res: HttpResponse, text: string): Promise<void> {
  if (text === '' || res.writableEnded || res.destroyed) return;
  if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
}
