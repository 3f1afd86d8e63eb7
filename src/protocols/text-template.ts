/*
 * Most events of a streamed answer differ from the one before only in their text: a Chat chunk
 * `{"id":"…",…,"choices":[{"index":0,"delta":{"content":"<text>"},…}]}`, an Anthropic
 * `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"<text>"}}`.
 * Parsing each one costs more than the rest of its translation together (about 0.8 µs for a
 * 240-byte Chat chunk). A template is such an event cut around its text: an event that is the
 * template's prefix, one JSON string's inside and the template's suffix parses to the template's
 * event with that text, because one string token swapped for another leaves the rest of the parse
 * as it was. So its text is all that needs reading. Two other members may change from event to
 * event too, each one token swapped for another of its kind: a counter (a Responses event's
 * `sequence_number`) before the text, and a last member of letters and digits (OpenAI's
 * `obfuscation` padding) after it.
 */

/** An event cut around its text: `prefix` ends with the string's opening quote, `suffix` starts with its closing one. */
export interface TextTemplate {
  /** Up to the text's opening quote; with a counter, up to the counter's digits, and `between` from after them to the quote. */
  readonly prefix: string;
  readonly between?: string;
  readonly suffix: string;
  /** `,"<name>":"` when the event ends with that member, whose letters and digits change: `suffix` then stops before it. */
  readonly tail?: string;
}

/** The members besides the text whose values may change from event to event, by name. */
export interface TextTemplateMembers {
  /** A counter (digits) before the text, e.g. `sequence_number`. */
  counter?: string;
  /** A last member whose value is letters and digits, e.g. `obfuscation`. */
  tail?: string;
}

/** The text a template is checked with: one no model writes. */
const PROBE = '\u0000probe';
const PROBE_LITERAL = JSON.stringify(PROBE).slice(1, -1);
/** The counter's and the tail member's values a template is checked with. */
const COUNTER_PROBE = 987654321;
const TAIL_PROBE = 'tailprobe0';

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetterOrDigit = (code: number) => isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Where the tail member `,"<name>":"<letters and digits>"}` that ends `data` begins; -1 when it does not end so. */
function tailStart(data: string, tail: string): number {
  const end = data.length - 2;
  if (data.charCodeAt(end) !== 34 /* " */ || data.charCodeAt(end + 1) !== 125 /* } */) return -1;
  let at = end;
  while (at > 0 && isLetterOrDigit(data.charCodeAt(at - 1))) at -= 1;
  const start = at - tail.length;
  return start >= 0 && data.substring(start, at) === tail ? start : -1;
}

/** Where the JSON number of digits starting at `at` ends; -1 when there is none, or one JSON refuses (a leading zero). */
function digitsEnd(data: string, at: number): number {
  let end = at;
  while (end < data.length && isDigit(data.charCodeAt(end))) end += 1;
  if (end === at || (data.charCodeAt(at) === 48 /* 0 */ && end - at > 1)) return -1;
  return end;
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
 * `text`: cut around the string of the last member named `name`, and around the `members` that
 * may change, where the event has them (a counter's first member of that name before the text, a
 * tail member as the event's last). Checked by parsing it with other values in those places,
 * which `textOf` and the event's own members must give back: as those are the only changes, the
 * tokens cut around are the ones the parser gives those places. Undefined when they are not.
 */
export function cutTextTemplate(
  data: string,
  name: string,
  text: string,
  textOf: (event: unknown) => unknown,
  members: TextTemplateMembers = {},
): TextTemplate | undefined {
  const key = data.lastIndexOf(`"${name}":`);
  if (key === -1 || text === PROBE) return undefined;
  let open = key + name.length + 3;
  while (data.charCodeAt(open) === 32 /* space */) open += 1;
  if (data.charCodeAt(open) !== 34) return undefined;
  const close = closingQuote(data, open);
  if (close === -1) return undefined;

  const counterKey = members.counter === undefined ? -1 : data.indexOf(`"${members.counter}":`);
  const counterAt = counterKey === -1 ? -1 : counterKey + members.counter!.length + 3;
  const counterEnd = counterAt === -1 || counterAt >= open ? -1 : digitsEnd(data, counterAt);
  const tailKey = members.tail === undefined ? undefined : `,"${members.tail}":"`;
  const cutAt = tailKey === undefined ? -1 : tailStart(data, tailKey);
  const hasTail = cutAt > close;
  const template: TextTemplate = {
    prefix: data.slice(0, counterEnd === -1 ? open + 1 : counterAt),
    ...(counterEnd === -1 ? {} : { between: data.slice(counterEnd, open + 1) }),
    suffix: data.slice(close, hasTail ? cutAt : undefined),
    ...(hasTail ? { tail: tailKey! } : {}),
  };
  const probe =
    template.prefix +
    (template.between === undefined ? '' : `${COUNTER_PROBE}${template.between}`) +
    PROBE_LITERAL +
    template.suffix +
    (template.tail === undefined ? '' : `${template.tail}${TAIL_PROBE}"}`);
  try {
    const parsed = JSON.parse(probe) as Record<string, unknown>;
    if (textOf(parsed) !== PROBE) return undefined;
    if (template.between !== undefined && parsed[members.counter!] !== COUNTER_PROBE) return undefined;
    if (template.tail !== undefined && parsed[members.tail!] !== TAIL_PROBE) return undefined;
    return template;
  } catch {
    return undefined;
  }
}

/**
 * The text of `data` when it is `template`'s event with another text (and counter and tail);
 * undefined when it is not (anything else differs, or the part between is not one JSON string's inside).
 */
export function readTemplateText(template: TextTemplate, data: string): string | undefined {
  const { prefix, between, suffix, tail } = template;
  const last = tail === undefined ? data.length : tailStart(data, tail);
  const end = last - suffix.length;
  // Compared as cut-out strings: V8 compares those whole, `startsWith` a character at a time (3× slower at this length).
  if (end < prefix.length || data.substring(0, prefix.length) !== prefix || data.substring(end, last) !== suffix) return undefined;
  let start = prefix.length;
  if (between !== undefined) {
    const digits = digitsEnd(data, start);
    if (digits === -1 || data.substring(digits, digits + between.length) !== between) return undefined;
    start = digits + between.length;
    if (start > end) return undefined;
  }
  let escaped = false;
  for (let at = start; at < end; at += 1) {
    const code = data.charCodeAt(at);
    // An unescaped quote or a raw control character: not one string's inside.
    if (code === 34 || code < 32) return undefined;
    if (code === 92) {
      escaped = true;
      at += 1;
    }
  }
  if (!escaped) return data.slice(start, end);
  // Escapes are decoded by the parser, which also refuses a bad one (or a last backslash, which
  // would escape the closing quote).
  try {
    return JSON.parse(data.slice(start - 1, end + 1)) as string;
  } catch {
    return undefined;
  }
}
