import { answerHeaderList } from './answer-headers.js';
import { noteRequestId } from './request-log-notes.js';
import type { HttpResponse } from './types.js';

/**
 * Sends a JSON answer without the host app's JSON settings (`json spaces`, replacers) touching it.
 * All headers go in one `writeHead`: cheaper than `setHeader` each, and merged with any a host
 * app set before.
 */
export function sendJson(
  res: HttpResponse,
  status: number,
  body: unknown,
  requestId?: string,
  extraHeaders?: Record<string, string>,
): void {
  sendJsonText(res, status, JSON.stringify(body), requestId, extraHeaders);
}

/** `sendJson` for a body already serialised (an upstream's, passed through). */
export function sendJsonText(
  res: HttpResponse,
  status: number,
  text: string,
  requestId?: string,
  extraHeaders?: Record<string, string>,
): void {
  const headers = answerHeaderList(
    res,
    ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text))],
    requestId,
    extraHeaders,
  );
  if (requestId !== undefined) noteRequestId(res, requestId);
  res.writeHead(status, headers);
  res.end(text);
}
