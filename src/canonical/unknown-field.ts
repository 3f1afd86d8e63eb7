import { findClosestId } from './closest-id.js';
import { GatewayError } from './errors.js';
import type { ProtocolName } from './extensions.js';
import { quoteCallerText } from './quote-caller-text.js';

/** The top-level request fields of one API: what tells a misspelt or foreign field from one a model cannot carry. */
export interface ApiFields {
  readonly protocol: ProtocolName;
  /** Every top-level field the API defines. */
  readonly known: ReadonlySet<string>;
  /**
   * Fields of the other APIs that callers send here by habit → how this API does the same, as a
   * clause about it: `'max_tokens'` → `it calls this 'max_output_tokens'`.
   */
  readonly counterparts: ReadonlyMap<string, string>;
}

/** The API a protocol word stands for, as a message names it. */
export function protocolApiName(protocol: ProtocolName): string {
  switch (protocol) {
    case 'chat':
      return 'the Chat Completions API';
    case 'responses':
      return 'the Responses API';
    case 'messages':
      return 'the Messages API';
  }
}

/**
 * Fields this short are never suggested: a one-letter field (Chat `n`) is contained in nearly
 * every name, and containment counts as a near match.
 */
const SHORTEST_SUGGESTED = 3;

/**
 * The 400 `UNKNOWN_FIELD` for a top-level field that is no field of the caller's API at all (a
 * typo, or another API's field), on its way to a model that does not take it as an extra field
 * (another protocol's provider, or a dialect without vendor extras). Another API's field gets
 * this API's way of saying it; any other the API's closest field. A field the API does define
 * but the model cannot carry is `unsupportedFeatureError`'s, not this.
 *
 * @example
 * unknownFieldError('temprature', chatFields, 'mock').message;
 * // → "'temprature' is not a field of the Chat Completions API. Did you mean 'temperature'? The model 'mock' does not take it as an extra field."
 */
export function unknownFieldError(field: string, api: ApiFields, model: string): GatewayError {
  const name = `'${quoteCallerText(field)}' is not a field of ${protocolApiName(api.protocol)}`;
  const extra = `model '${model}' does not take it as an extra field`;
  const counterpart = api.counterparts.get(field);
  const suggestion =
    counterpart === undefined
      ? findClosestId(
          field,
          [...api.known].filter((candidate) => candidate.length >= SHORTEST_SUGGESTED),
        )
      : undefined;
  const message =
    counterpart !== undefined
      ? `${name}: ${counterpart}. The ${extra}.`
      : suggestion !== undefined
        ? `${name}. Did you mean '${suggestion}'? The ${extra}.`
        : `${name}, and the ${extra}. Remove it from the request.`;
  return new GatewayError({ code: 'UNKNOWN_FIELD', param: field, message });
}
