import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Stored gateway keys: `sk-sy-`, a public id (16 chars), a secret (43 chars), a checksum (6 chars),
 * all base64url, fixed lengths. The prefix makes a leaked key recognisable to secret scanners; the
 * public id is safe to show and log; the checksum (CRC-32 of the rest) catches a mistyped key
 * before any lookup. Only a SHA-256 hash of the secret is stored: the secret is 256 random bits,
 * so a slow password hash would add nothing.
 */
export const KEY_PREFIX = 'sk-sy-';
const PUBLIC_ID_LENGTH = 16; // 12 random bytes
const SECRET_LENGTH = 43; // 32 random bytes
const CHECKSUM_LENGTH = 6; // 4 bytes of CRC-32
export const KEY_LENGTH = KEY_PREFIX.length + PUBLIC_ID_LENGTH + SECRET_LENGTH + CHECKSUM_LENGTH;
const keyShape = new RegExp(`^${KEY_PREFIX}[A-Za-z0-9_-]{${KEY_LENGTH - KEY_PREFIX.length}}$`);

export interface MintedKey {
  /** The whole key: shown to its owner once, never stored. */
  key: string;
  publicId: string;
  secretHash: string;
}

export type ParsedKey =
  | { ok: true; publicId: string; secretHash: string }
  /**
   * `not-ours`: no `sk-sy-` prefix (perhaps a key from the options); `checksum`: ours, mistyped —
   * truncated, too long, a character off, or failing its checksum.
   */
  | { ok: false; reason: 'not-ours' | 'checksum' };

function checksumOf(body: string): string {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(body));
  return sum.toString('base64url');
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/**
 * A public id: 12 random bytes, drawn again when the first character is `-` (1 in 64), which a
 * command line would read as an option (`switchyard keys revoke -Bx…`).
 */
function mintPublicId(): string {
  for (;;) {
    const publicId = randomBytes(12).toString('base64url');
    if (!publicId.startsWith('-')) return publicId;
  }
}

/** A new key and what is stored of it. */
export function mintKey(): MintedKey {
  const publicId = mintPublicId();
  const secret = randomBytes(32).toString('base64url');
  const body = `${KEY_PREFIX}${publicId}${secret}`;
  return { key: `${body}${checksumOf(body)}`, publicId, secretHash: hashSecret(secret) };
}

/** Reads a presented key: its public id and the hash to compare, or why it cannot be one of ours. */
export function parseKey(key: string): ParsedKey {
  // A key with our prefix but not our length or alphabet was copied incompletely: it is ours, mistyped.
  if (!keyShape.test(key)) return { ok: false, reason: key.startsWith(KEY_PREFIX) ? 'checksum' : 'not-ours' };
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(body) !== key.slice(-CHECKSUM_LENGTH)) return { ok: false, reason: 'checksum' };
  const publicId = body.slice(KEY_PREFIX.length, KEY_PREFIX.length + PUBLIC_ID_LENGTH);
  return { ok: true, publicId, secretHash: hashSecret(body.slice(KEY_PREFIX.length + PUBLIC_ID_LENGTH)) };
}

/**
 * `parseKey` remembering the keys it read well: a client presents the same key on every request,
 * and the checksum and hash cost more than the rest of the key check. Holds at most `limit` keys
 * (then starts over); only in this process's memory, where each request's key already is.
 */
export function memoizedKeyParser(limit = 10_000): (key: string) => ParsedKey {
  const parsed = new Map<string, ParsedKey>();
  return (key) => {
    const known = parsed.get(key);
    if (known !== undefined) return known;
    const result = parseKey(key);
    if (result.ok) {
      if (parsed.size >= limit) parsed.clear();
      parsed.set(key, result);
    }
    return result;
  };
}
