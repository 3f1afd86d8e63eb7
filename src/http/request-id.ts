import { randomFillSync } from 'node:crypto';

const RANDOM_BYTES = 10;
const RANDOM_HEX = RANDOM_BYTES * 2;
const IDS_PER_DRAW = 256;
/**
 * Random bytes are drawn 256 ids at a time and turned into hex at once: one call into the CSPRNG
 * and one hex conversion per batch instead of one each per request.
 */
const random = Buffer.alloc(RANDOM_BYTES * IDS_PER_DRAW);
let hex = '';
let offset = hex.length;
/** The time part of the last id, kept for the ids of the same millisecond. */
let lastMs = -1;
let lastTime = '';

const LOW = 0x1000000;

/**
 * A time in milliseconds as 12 hex digits (`ms.toString(16).padStart(12, '0')` below 2^48: the
 * year 10889). In two halves of 24 bits: on a number under 2^31 `toString(16)` stays in V8's
 * builtin, where on a time since 1970 (above 2^31) it calls the runtime's general radix conversion,
 * about 2.8k instructions (callgrind); natively a request in a new millisecond pays it.
 */
export function millisecondsHex(ms: number): string {
  const high = Math.floor(ms / LOW);
  return high.toString(16).padStart(6, '0') + (ms - high * LOW).toString(16).padStart(6, '0');
}

/**
 * A new request id, `req_` + 32 hex characters: the time in milliseconds (12) then 80 random bits
 * (20). It names the exchange in logs, headers and wire ids. Leading with the time keeps ids in
 * creation order, so the ledger's primary key grows at its end instead of at random pages: a random
 * key cost SQLite about 2.5× the CPU per row (more pages per commit, more to checkpoint). 80 random
 * bits keep ids from many instances in the same millisecond apart.
 */
export function createRequestId(): string {
  if (offset === hex.length) {
    randomFillSync(random);
    hex = random.toString('hex');
    offset = 0;
  }
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `req_${millisecondsHex(now)}`;
  }
  const id = lastTime + hex.slice(offset, offset + RANDOM_HEX);
  offset += RANDOM_HEX;
  return id;
}
