// Pieces of JSON text for lines whose fields are known: one JSON.stringify of a whole line object
// cost ~1.3 µs on Node 20 (it looks up toJSON and walks the object's shape field by field).

/** Printable ASCII without `"` or `\`: written between quotes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `JSON.stringify(text)`, with plain text (ids, model names) taken as it is. */
export function jsonString(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** Names quoted so far; past MAX_QUOTED_NAMES the cache starts over (names are few, a flood's are not). */
const quotedNames = new Map<string, string>();
const MAX_QUOTED_NAMES = 1_000;

/**
 * `jsonString(name)` for a name that comes back line after line (a key's id, a protocol, a model, a
 * deployment): quoted once and looked up after, where the check for characters to escape cost
 * about 500 instructions a field (callgrind).
 */
export function jsonName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    if (quotedNames.size >= MAX_QUOTED_NAMES) quotedNames.clear();
    quoted = jsonString(name);
    quotedNames.set(name, quoted);
  }
  return quoted;
}

/** `JSON.stringify(value)` for a number: `null` when it is not finite. */
export function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
