import type { Extensions } from '../../canonical/index.js';
import { pickUnknownFields } from '../unknown-fields.js';

/**
 * Wraps the wire fields that have no canonical home into `{ extensions: { responses } }`, ready
 * to spread into a canonical object. `undefined` and `null` values are left out (null means
 * "not set" on this wire); an empty bag yields `{}` so no empty `extensions` appear.
 */
export function decodeResponsesExtensions(fields: Record<string, unknown>): { extensions?: Extensions } {
  const kept = pickUnknownFields(fields);
  return kept === undefined ? {} : { extensions: { responses: kept } };
}

/** The `responses` bag of a canonical object's extensions (empty when absent). */
export function readResponsesExtensions(owner: { extensions?: Extensions } | undefined): Record<string, unknown> {
  return owner?.extensions?.responses ?? {};
}
