/**
 * The unknown-field carry-along: the fields of a wire object the decoder has no mapping for, kept
 * under their wire names so they reach a provider (or a client) of the same protocol; `undefined`
 * when there are none. One rule for every protocol:
 * - in a request, `null` counts as absent, as the OpenAI and Anthropic APIs read it: a
 *   `"field": null` is neither carried along nor sent on (`pickUnknownFields`);
 * - in a provider's answer, fields are kept exactly as sent, `null` included, so a client of the
 *   same protocol sees what the provider wrote (`pickUnknownAnswerFields`; Anthropic's
 *   `container: null`).
 */
export function pickUnknownFields(object: Record<string, unknown>, known: readonly string[] = []): Record<string, unknown> | undefined {
  return pick(object, known, false);
}

/** `pickUnknownFields` for a provider's answer: `null` values are kept. */
export function pickUnknownAnswerFields(
  object: Record<string, unknown>,
  known: readonly string[] = [],
): Record<string, unknown> | undefined {
  return pick(object, known, true);
}

function pick(object: Record<string, unknown>, known: readonly string[], keepNull: boolean): Record<string, unknown> | undefined {
  let unknown: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (value === undefined || (value === null && !keepNull) || !Object.hasOwn(object, key) || known.includes(key)) continue;
    (unknown ??= {})[key] = value;
  }
  return unknown;
}
