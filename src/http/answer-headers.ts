import type { OutgoingHttpHeaders } from 'node:http';
import type { HttpResponse } from './types.js';

const ADDED = Symbol('switchyard.answerHeaders');
type WithAdded = HttpResponse & { [ADDED]?: Record<string, string> };

/**
 * Headers a stage adds to the answer before it is written (the rate-limit headers): kept aside and
 * put into the answer's one `writeHead`, since each `setHeader` beforehand makes Node validate and
 * merge every header of the answer again.
 */
export function addAnswerHeaders(res: HttpResponse, headers: Record<string, string>): void {
  const before = (res as WithAdded)[ADDED];
  if (before === undefined) (res as WithAdded)[ADDED] = headers;
  // Hot-path rule 1 (docs/architecture.md#hot-path-rules).
  else (res as WithAdded)[ADDED] = Object.assign({}, before, headers);
}

/** Puts the headers added for `res` into `headers` (the object about to be written). */
export function withAnswerHeaders(res: HttpResponse, headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const added = (res as WithAdded)[ADDED];
  if (added !== undefined) for (const name in added) headers[name] = added[name];
  return headers;
}
