/*
 * Most events of a streamed answer differ from the one before only in their text: a Chat chunk
 * `{"id":"…",…,"choices":[{"index":0,"delta":{"content":"<text>"},…}]}`, an Anthropic
 * `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"<text>"}}`.
 * Parsing each one costs more than the rest of its translation together (about 0.8 µs for a
 * 240-byte Chat chunk). A template is such an event cut around its text: an event that is the
 * template's prefix, one JSON string's inside and the template's suffix parses to the template's
 * event with that text, because one string token swapped for another leaves the rest of the parse
 * as it was. So its text is all that needs reading.
 */

/** An event cut around its text: `prefix` ends with the string's opening quote, `suffix` starts with its closing one. */
export interface TextTemplate {
  readonly prefix: string;
  readonly suffix: string;
  /**
   * `,"<name>":"` when the event ends with that member, a string of letters and digits that
   * changes from event to event (OpenAI's `obfuscation` padding): `suffix` then stops before it.
   */
  readonly tail?: string;
}

/** The text a template is checked with: one no model writes. */
const PROBE = '\u0000probe';
const PROBE_LITERAL = JSON.stringify(PROBE).slice(1, -1);
/** The tail member's value a template is checked with. */
const TAIL_PROBE = 'tailprobe0';

const isLetterOrDigit = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Where the tail member `,"<name>":"<letters and digits>"}` that ends `data` begins; -1 when it does not end so. */
function tailStart(data: string, tail: string): number {
  const end = data.length - 2;
  if (data.charCodeAt(end) !== 34 /* " */ || data.charCodeAt(end + 1) !== 125 /* } */) return -1;
  let at = end;
  while (at > 0 && isLetterOrDigit(data.charCodeAt(at - 1))) at -= 1;
  const start = at - tail.length;
  return start >= 0 && data.substring(start, at) === tail ? start : -1;
}

/** Where the JSON string starting at `open` (its opening quote) ends: its closing quote's index, or -1. */
function closingQuote(data: string, open: number): number {
  for (let at = open + 1; at < data.length; at += 1) {
    const code = data.charCodeAt(at);
    if (code === 34 /* " */) return at;
    if (code === 92 /* \ */) at += 1;
  }
  return -1;
}

/**
 * The template of `data`, an event whose text (as `textOf` finds it in the parsed event) is
 * `text`: cut around the string of the last member named `name`, and before a last member named
 * `tail` whose value is letters and digits, when there is one. Checked by parsing it around
 * another text (and another tail value), which `textOf` (and the event's `tail` member) must give:
 * as those are the only changes, the strings cut around are the ones the parser gives those
 * places. Undefined when they are not.
 */
export function cutTextTemplate(
  data: string,
  name: string,
  text: string,
  textOf: (event: unknown) => unknown,
  tail?: string,
): TextTemplate | undefined {
  const key = data.lastIndexOf(`"${name}":`);
  if (key === -1 || text === PROBE) return undefined;
  let open = key + name.length + 3;
  while (data.charCodeAt(open) === 32 /* space */) open += 1;
  if (data.charCodeAt(open) !== 34) return undefined;
  const close = closingQuote(data, open);
  if (close === -1) return undefined;
  const tailKey = tail === undefined ? undefined : `,"${tail}":"`;
  const cutAt = tailKey === undefined ? -1 : tailStart(data, tailKey);
  const template: TextTemplate =
    cutAt > close
      ? { prefix: data.slice(0, open + 1), suffix: data.slice(close, cutAt), tail: tailKey! }
      : { prefix: data.slice(0, open + 1), suffix: data.slice(close) };
  const probe = `${template.prefix}${PROBE_LITERAL}${template.suffix}${template.tail === undefined ? '' : `${template.tail}${TAIL_PROBE}"}`}`;
  try {
    const parsed: unknown = JSON.parse(probe);
    if (textOf(parsed) !== PROBE) return undefined;
    if (template.tail !== undefined && (parsed as Record<string, unknown>)[tail!] !== TAIL_PROBE) return undefined;
    return template;
  } catch {
    return undefined;
  }
}

/**
 * The text of `data` when it is `template`'s event with another text; undefined when it is not
 * (anything else differs, or the part between is not one JSON string's inside).
 */
export function readTemplateText(template: TextTemplate, data: string): string | undefined {
  const { prefix, suffix, tail } = template;
  const last = tail === undefined ? data.length : tailStart(data, tail);
  const end = last - suffix.length;
  // Compared as cut-out strings: V8 compares those whole, `startsWith` a character at a time (3× slower at this length).
  if (end < prefix.length || data.substring(0, prefix.length) !== prefix || data.substring(end, last) !== suffix) return undefined;
  let escaped = false;
  for (let at = prefix.length; at < end; at += 1) {
    const code = data.charCodeAt(at);
    // An unescaped quote or a raw control character: not one string's inside.
    if (code === 34 || code < 32) return undefined;
    if (code === 92) {
      escaped = true;
      at += 1;
    }
  }
  if (!escaped) return data.slice(prefix.length, end);
  // Escapes are decoded by the parser, which also refuses a bad one (or a last backslash, which
  // would escape the closing quote).
  try {
    return JSON.parse(data.slice(prefix.length - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}
