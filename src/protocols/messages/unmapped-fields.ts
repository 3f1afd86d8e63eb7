import type { Extensions } from '../../canonical/index.js';

/**
 * The fields of a wire object that the decoder did not map to a canonical field, kept
 * verbatim under their wire names; `undefined` when every field found a home.
 */
export function unmappedFields(
  wire: Record<string, unknown>,
  mappedKeys: readonly string[],
): Record<string, unknown> | undefined {
  let rest: Record<string, unknown> | undefined;
  for (const key in wire) {
    const value = wire[key];
    if (value === undefined || mappedKeys.includes(key)) continue;
    rest ??= {};
    rest[key] = value;
  }
  return rest;
}

/** An `Extensions` bag holding `fields` for this protocol, or `undefined` when there are none. */
export function messagesExtensions(fields: Record<string, unknown> | undefined): Extensions | undefined {
  return fields === undefined || Object.keys(fields).length === 0 ? undefined : { messages: fields };
}
