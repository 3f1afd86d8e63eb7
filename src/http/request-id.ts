import { randomBytes } from 'node:crypto';

/** A new request id, `req_` + 24 hex characters; it names the exchange in logs, headers and wire ids. */
export function createRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}
