import { randomFillSync } from 'node:crypto';

const RANDOM_BYTES = 10;
/** Random bytes are drawn 256 ids at a time: one call into the CSPRNG per batch instead of one per request. */
const random = Buffer.alloc(RANDOM_BYTES * 256);
let offset = random.length;

/**
 * A new request id, `req_` + 32 hex characters: the time in milliseconds (12) then 80 random bits
 * (20). It names the exchange in logs, headers and wire ids. Leading with the time keeps ids in
 * creation order, so the ledger's primary key grows at its end instead of at random pages: a random
 * key cost SQLite about 2.5× the CPU per row (more pages per commit, more to checkpoint). 80 random
 * bits keep ids from many instances in the same millisecond apart.
 */
export function createRequestId(): string {
  if (offset === random.length) {
    randomFillSync(random);
    offset = 0;
  }
  const id = `req_${Date.now().toString(16).padStart(12, '0')}${random.toString('hex', offset, offset + RANDOM_BYTES)}`;
  offset += RANDOM_BYTES;
  return id;
}
