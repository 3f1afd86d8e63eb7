import type { HttpResponse } from './types.js';

/** Sends a JSON answer without the host app's JSON settings (`json spaces`, replacers) touching it. */
export function sendJson(res: HttpResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
