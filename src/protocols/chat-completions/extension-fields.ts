import type { Extensions } from '../../canonical/index.js';

/**
 * Marker keys the Chat decoder puts in `extensions.chat` that are not wire fields: the
 * deprecated-functions `source` on tools and tool calls. Every other key is a wire field.
 */
const markerKeys: ReadonlySet<string> = new Set(['source']);

/** What most owners carry: shared, so reading nothing allocates nothing. Never written to. */
const noFields: Record<string, unknown> = Object.freeze({});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The wire fields a Chat client sent on this object that had no canonical home (same-protocol
 * passthrough), without decoder markers and without `skip`. Other protocols' extensions are
 * hints for their own wire (`cache_control`, Responses item ids) and are not read here.
 */
export function readChatExtensionFields(
  owner: { extensions?: Extensions } | undefined,
  skip: readonly string[] = [],
): Record<string, unknown> {
  const fields = owner?.extensions?.chat;
  if (fields === undefined) return noFields;
  const kept: Record<string, unknown> = {};
  for (const key in fields) {
    if (!markerKeys.has(key) && !skip.includes(key)) kept[key] = fields[key];
  }
  return kept;
}

/** `fields[key]` when it is an object (the decoder keeps a nested object's unknown keys there). */
export function readNestedFields(fields: Record<string, unknown>, key: string): Record<string, unknown> {
  const nested = fields[key];
  return isPlainObject(nested) ? nested : {};
}

/** `base` with the passthrough `fields` added: `base` wins, except that two objects are merged. */
export function mergeChatFields<T extends Record<string, unknown>>(base: T, fields: Record<string, unknown>): T {
  let merged: Record<string, unknown> | undefined;
  for (const key in fields) {
    merged ??= { ...fields, ...base };
    const own = base[key];
    const value = fields[key];
    if (isPlainObject(own) && isPlainObject(value)) merged[key] = { ...value, ...own };
  }
  return (merged ?? base) as T;
}
