import type { Extensions } from '../../canonical/index.js';

/** `value` with `extensions.chat` set to `fields`, or `value` unchanged when there are no fields. */
export function withChatExtensions<const T extends object>(
  value: T & { extensions?: Extensions },
  fields: Record<string, unknown> | undefined,
): T & { extensions?: Extensions } {
  if (fields === undefined || Object.keys(fields).length === 0) return value;
  return { ...value, extensions: { ...value.extensions, chat: { ...value.extensions?.chat, ...fields } } };
}
