/** Longest piece of caller-supplied text (an id, a field name) repeated in an error message. */
export const QUOTE_MAX = 80;

/**
 * Caller-supplied text as an error message may repeat it: at most `max` characters, the rest
 * replaced by its length. A 16 MB model id must not come back in the 404, nor fill a log line.
 */
export function quoteCallerText(text: string, max = QUOTE_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
