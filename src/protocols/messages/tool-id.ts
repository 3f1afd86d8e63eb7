/** Anthropic accepts `tool_use.id` / `tool_result.tool_use_id` only in this alphabet. */
const validToolId = /^[a-zA-Z0-9_-]+$/;

/** FNV-1a over UTF-16 code units, 32 bits, from `offset`. */
function fnv1a(text: string, offset: number): number {
  let hash = offset;
  for (let at = 0; at < text.length; at += 1) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/**
 * A tool call id as Anthropic accepts it. Valid ids are kept; any other id (MCP-style
 * `server.tool:1`, `call|7`, empty) becomes its characters with the invalid ones replaced by
 * `_`, plus a 64-bit hash of the original, so two ids that differ only in invalid characters
 * stay apart. Deterministic: the same id gives the same result on `tool_use` and `tool_result`.
 */
export function encodeMessagesToolId(id: string): string {
  if (validToolId.test(id)) return id;
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40);
  return `${readable}_${hex(fnv1a(id, 0x811c9dc5))}${hex(fnv1a(id, 0x050c5d1f))}`;
}
