import { hashString53 } from '../string-hash.js';
import type { ResponsesItemPrefix } from './wire-id.js';

/**
 * An item id in OpenAI's format (`msg_…`, `fc_…`, `rs_…`) for a replayed item that has none of its
 * own (it came from another protocol). Deterministic: the same history gets the same ids on every turn.
 */
export function mintResponsesItemId(prefix: ResponsesItemPrefix, seed: string): string {
  return `${prefix}_sy${hashString53(`${prefix}:${seed}`).toString(16).padStart(14, '0')}`;
}
