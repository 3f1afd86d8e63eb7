import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
/** Random bytes are drawn 256 ids at a time: one call into the CSPRNG per batch instead of one per request. */
const random = Buffer.alloc(ID_BYTES * 256);
let offset = random.length;

/** A new request id, `req_` + 24 hex characters; it names the exchange in logs, headers and wire ids. */
export function createRequestId(): string {
  if (offset === random.length) {
    randomFillSync(random);
    offset = 0;
  }
  const id = `req_${random.toString('hex', offset, offset + ID_BYTES)}`;
  offset += ID_BYTES;
  return id;
}
