import type { Extensions } from '../../canonical/index.js';

/** An `Extensions` bag holding `fields` for this protocol, or `undefined` when there are none. */
export function messagesExtensions(fields: Record<string, unknown> | undefined): Extensions | undefined {
  return fields === undefined || Object.keys(fields).length === 0 ? undefined : { messages: fields };
}
