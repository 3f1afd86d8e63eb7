/*
 * Most chunks of a streamed Chat answer differ from the one before only in their delta's text:
 * `{"id":"…","object":"chat.completion.chunk",…,"choices":[{"index":0,"delta":{"content":"<text>"},…}]}`.
 * Parsing each one costs more than the rest of its translation together (about 0.8 µs for a
 * 240-byte chunk). A template is such a chunk cut around its text: a chunk that is the template's
 * prefix, one JSON string's inside and the template's suffix parses to the template's chunk with
 * that text, because one string token swapped for another leaves the rest of the parse as it was.
 * So its text is all that needs reading.
 */

/** A chunk cut around its delta's text: `prefix` ends with the string's opening quote, `suffix` starts with its closing one. */
export interface TextChunkTemplate {
  readonly prefix: string;
  readonly suffix: string;
}

const CONTENT_KEY = '"content":';
/** The text the template is checked with: one no model writes. */
const PROBE = '\u0000probe';
const PROBE_LITERAL = JSON.stringify(PROBE).slice(1, -1);

/** Where the JSON string starting at `open` (its opening quote) ends: its closing quote's index, or -1. */
function closingQuote(data: string, open: number): number {
  for (let at = open + 1; at < data.length; at += 1) {
    const code = data.charCodeAt(at);
    if (code === 34 /* " */) return at;
    if (code === 92 /* \ */) at += 1;
  }
  return -1;
}

/** Where the decoder reads a chunk's text: its first choice's delta. */
const textOf = (chunk: unknown): unknown =>
  (chunk as { choices?: { delta?: { content?: unknown } }[] } | null)?.choices?.[0]?.delta?.content;

/**
 * The template of `data`, a chunk with one choice whose delta's text is `text`: cut around the
 * last `"content":` member's string. Checked by parsing it around another text, which must come
 * out as the first choice's delta text: as that text is the only change, the string cut around is
 * the one the parser gives that place. Undefined when it is not.
 */
export function cutTextChunkTemplate(data: string, text: string): TextChunkTemplate | undefined {
  const key = data.lastIndexOf(CONTENT_KEY);
  if (key === -1 || text === PROBE) return undefined;
  let open = key + CONTENT_KEY.length;
  while (data.charCodeAt(open) === 32 /* space */) open += 1;
  if (data.charCodeAt(open) !== 34) return undefined;
  const close = closingQuote(data, open);
  if (close === -1) return undefined;
  const template = { prefix: data.slice(0, open + 1), suffix: data.slice(close) };
  try {
    return textOf(JSON.parse(`${template.prefix}${PROBE_LITERAL}${template.suffix}`)) === PROBE ? template : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The delta text of `data` when it is `template`'s chunk with another text; undefined when it is
 * not (anything else differs, or the part between is not one JSON string's inside).
 */
export function readTextChunk(template: TextChunkTemplate, data: string): string | undefined {
  const { prefix, suffix } = template;
  const end = data.length - suffix.length;
  // Compared as cut-out strings: V8 compares those whole, `startsWith` a character at a time (3× slower at this length).
  if (end < prefix.length || data.substring(0, prefix.length) !== prefix || data.substring(end) !== suffix) return undefined;
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
