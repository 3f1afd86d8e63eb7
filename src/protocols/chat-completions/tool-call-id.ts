import type { ChatDialect } from './dialect.js';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 64-bit FNV-1a of the id's UTF-16 code units, as a BigInt: deterministic and well spread. */
function hash(text: string): bigint {
  let value = 0xcbf29ce484222325n;
  for (let at = 0; at < text.length; at += 1) {
    value ^= BigInt(text.charCodeAt(at));
    value = (value * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return value;
}

/** A 9-character alphanumeric id derived from `id` (Mistral accepts only `^[a-zA-Z0-9]{9}$`). */
function alnum9(id: string): string {
  if (/^[a-zA-Z0-9]{9}$/.test(id)) return id;
  let value = hash(id);
  let out = '';
  for (let count = 0; count < 9; count += 1) {
    out += alphabet[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}

/**
 * A tool-call id as the dialect accepts it in history. `opaque` keeps it verbatim; `alnum9`
 * maps it deterministically, so the call and its `tool` message still match.
 */
export function encodeChatToolCallId(id: string, dialect: ChatDialect): string {
  return dialect.toolCallIds === 'alnum9' ? alnum9(id) : id;
}
