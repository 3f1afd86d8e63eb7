import { hashString53 } from '../string-hash.js';

/**
 * Where Gemini's opaque values travel through clients that know nothing about Gemini.
 *
 * - A `thoughtSignature` on a `functionCall` part rides inside the canonical tool-call id:
 *   `<call id>__thought__<signature as base64url>`. Every client echoes tool-call ids, so the
 *   signature comes back on the same call (Gemini 3 rejects a replayed call without it).
 *   Ids stay within `[A-Za-z0-9_-]` (Anthropic's tool id alphabet) when the call id does.
 * - A `thoughtSignature` on a thought or text part rides in a canonical reasoning part's
 *   `signature`, prefixed `gemini:` so it is never mistaken for (or sent as) another vendor's.
 */

const SIGNATURE_MARK = /__thought(hex)?__/;
const REASONING_PREFIX = 'gemini:';

const isPaddedBase64 = (value: string): boolean => /^[A-Za-z0-9+/]*={0,2}$/.test(value) && value.length % 4 === 0;

function toHex(value: string): string {
  return Array.from(new TextEncoder().encode(value), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): string | undefined {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let at = 0; at < bytes.length; at++) bytes[at] = Number.parseInt(hex.slice(at * 2, at * 2 + 2), 16);
  return new TextDecoder().decode(bytes);
}

/** The canonical tool-call id for a Gemini call id and the signature that came with it (if any). */
export function encodeToolCallId(callId: string, signature: string | undefined): string {
  if (signature === undefined || signature === '') return callId;
  if (!isPaddedBase64(signature)) return `${callId}__thoughthex__${toHex(signature)}`;
  return `${callId}__thought__${signature.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/** A canonical tool-call id split back into Gemini's call id and its thought signature, byte-exact. */
export function decodeToolCallId(id: string): { callId: string; signature?: string } {
  const mark = SIGNATURE_MARK.exec(id);
  if (!mark) return { callId: id };
  const callId = id.slice(0, mark.index);
  const carried = id.slice(mark.index + mark[0].length);
  if (mark[1] === 'hex') {
    const signature = fromHex(carried);
    return signature === undefined ? { callId: id } : { callId, signature };
  }
  const base64 = carried.replaceAll('-', '+').replaceAll('_', '/');
  return { callId, signature: base64.padEnd(Math.ceil(base64.length / 4) * 4, '=') };
}

/** A reasoning part's `signature` for a Gemini thought signature. */
export function encodeReasoningSignature(signature: string): string {
  return `${REASONING_PREFIX}${signature}`;
}

/** The Gemini thought signature inside a reasoning part's `signature`; undefined for other vendors' signatures. */
export function decodeReasoningSignature(signature: string | undefined): string | undefined {
  if (signature === undefined || !signature.startsWith(REASONING_PREFIX)) return undefined;
  const value = signature.slice(REASONING_PREFIX.length);
  return value === '' ? undefined : value;
}

/**
 * A call id for a `functionCall` Gemini sent without one: stable for the same response, call
 * position and name, and distinct for each call of a response (never the function name alone).
 */
export function mintToolCallId(responseId: string, ordinal: number, name: string): string {
  return `call_${hashString53(`${responseId}\u0000${ordinal}\u0000${name}`).toString(36)}_${ordinal}`;
}
