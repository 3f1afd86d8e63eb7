import type { ResponsesItemPrefix } from './wire-id.js';

/** cyrb53: a fast, well-spread 53-bit string hash (no crypto needed for an id). */
function hash53(seed: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < seed.length; index++) {
    const code = seed.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * An item id in OpenAI's format (`msg_…`, `fc_…`, `rs_…`) for a replayed item that has none of its
 * own (it came from another protocol). Deterministic: the same history gets the same ids on every turn.
 */
export function mintResponsesItemId(prefix: ResponsesItemPrefix, seed: string): string {
  return `${prefix}_sy${hash53(`${prefix}:${seed}`)}`;
}
