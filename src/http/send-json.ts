import type { OutgoingHttpHeaders } from 'node:http';
import { withAnswerHeaders } from './answer-headers.js';
import { noteRequestId } from './request-log-notes.js';
import type { HttpResponse } from './types.js';

/** The request id headers: Anthropic SDKs read `request-id`, OpenAI SDKs `x-request-id`. */
export function requestIdHeaders(headers: OutgoingHttpHeaders, requestId: string | undefined): OutgoingHttpHeaders {
  if (requestId !== undefined) {
    headers['x-request-id'] = requestId;
    headers['request-id'] = requestId;
  }
  return headers;
}

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
  const headers: OutgoingHttpHeaders = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) };
  if (extraHeaders !== undefined) for (const name in extraHeaders) headers[name] = extraHeaders[name];
  if (requestId !== undefined) noteRequestId(res, requestId);
  res.writeHead(status, withAnswerHeaders(res, requestIdHeaders(headers, requestId)));
  res.end(text);
}
