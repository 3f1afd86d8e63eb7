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
}

/** The text a template is checked with: one no model writes. */
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

/**
 * The template of `data`, an event whose text (as `textOf` finds it in the parsed event) is
 * `text`: cut around the string of the last member named `name`. Checked by parsing it around
 * another text, which `textOf` must find: as that text is the only change, the string cut around
 * is the one the parser gives that place. Undefined when it is not.
 */
export function cutTextTemplate(data: string, name: string, text: string, textOf: (event: unknown) => unknown): TextTemplate | undefined {
  const key = data.lastIndexOf(`"${name}":`);
  if (key === -1 || text === PROBE) return undefined;
  let open = key + name.length + 3;
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
 * The text of `data` when it is `template`'s event with another text; undefined when it is not
 * (anything else differs, or the part between is not one JSON string's inside).
 */
export function readTemplateText(template: TextTemplate, data: string): string | undefined {
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
