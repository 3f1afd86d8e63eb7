import type { Extensions } from '../../canonical/index.js';

/**
 * The keys of a wire object the decoder has no mapping for, kept as sent; `undefined` when none.
 * `null` counts as absent (OpenAI's API reads `null` as "not set").
 */
export function pickUnknownFields(
  object: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> | undefined {
  let unknown: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && value !== null && !known.includes(key)) (unknown ??= {})[key] = value;
  }
  return unknown;
}

/** `value` with `extensions.chat` set to `fields`, or `value` unchanged when there are no fields. */
export function withChatExtensions<const T extends object>(
  value: T & { extensions?: Extensions },
  fields: Record<string, unknown> | undefined,
): T & { extensions?: Extensions } {
  if (fields === undefined || Object.keys(fields).length === 0) return value;
  return { ...value, extensions: { ...value.extensions, chat: { ...value.extensions?.chat, ...fields } } };
}
