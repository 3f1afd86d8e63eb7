import type { CanonicalResponse, RelayedAnswer } from '../canonical/index.js';
import type { SseMessage } from '../sse/format-sse.js';

const typePrefix = '{"type":"';

/**
 * The event type a message names, without parsing it: its `event:` line, else the `type` that
 * OpenAI and Anthropic write first in `data`. Undefined when neither says.
 */
export function eventTypeOf(message: SseMessage): string | undefined {
  if (message.event !== undefined) return message.event;
  const { data } = message;
  if (!data.startsWith(typePrefix)) return undefined;
  const end = data.indexOf('"', typePrefix.length);
  return end < 0 ? undefined : data.slice(typePrefix.length, end);
}

/**
 * Whether a delta passed on unread has the shape of one JSON event: `{"type":"<type>"…}`. A cut or
 * garbled event fails it and is decoded instead, so the caller gets the in-band invalid-stream error
 * rather than a frame its SDK cannot parse. (Parsing every delta would cost more than relaying it.)
 */
export function looksLikeEvent(data: string, type: string): boolean {
  return (
    data.charCodeAt(data.length - 1) === 125 /* } */ &&
    data.startsWith(typePrefix) &&
    data.startsWith(type, typePrefix.length) &&
    data.charCodeAt(typePrefix.length + type.length) === 34 /* " */
  );
}

/** A `"model": "…"` member, whatever the spacing. */
const modelMember = /"model"\s*:\s*"((?:[^"\\]|\\.)*)"/;
/** Characters JSON writes escaped in a string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is escaped.
const needsEscape = /["\\\u0000-\u001f]/;

/**
 * `data` (one JSON event) with its first `model` member naming `to` — when that member names
 * `from`, i.e. it is the answer's own (providers write it before any nested object that could
 * hold another). Undefined otherwise: the caller re-serialises the event instead.
 */
export function renameModel(data: string, from: string, to: string): string | undefined {
  // Most providers write compact JSON, the member as `"model":"<from>"`: found without the regex
  // when it is the text's first `"model"` (where the regex would find it) and `from` needs no escape.
  const first = data.indexOf('"model"');
  if (first < 0) return undefined;
  const value = first + 9; // after `"model":"`
  let at = first;
  let end = value + from.length + 1;
  const compact =
    data.charCodeAt(first + 7) === 58 /* : */ &&
    data.charCodeAt(first + 8) === 34 /* " */ &&
    data.startsWith(from, value) &&
    data.charCodeAt(value + from.length) === 34 &&
    !needsEscape.test(from);
  if (!compact) {
    const match = modelMember.exec(data);
    if (match === null || JSON.parse(`"${match[1]}"`) !== from) return undefined;
    at = match.index;
    end = match.index + match[0].length;
  }
  return `${data.slice(0, at)}"model":${JSON.stringify(to)}${data.slice(end)}`;
}

/**
 * A non-streamed answer passed through: decoded as the translated path decodes it (so a failed
 * answer throws the same error, and the usage is known), sent as the upstream wrote it but for
 * the model it names.
 */
export function relayJsonAnswer(
  text: string,
  body: unknown,
  answerModel: string,
  decode: (body: unknown) => CanonicalResponse,
): RelayedAnswer {
  const response = decode(body);
  const model = (body as { model?: unknown }).model;
  if (model === answerModel) return { response, wire: text };
  const renamed = typeof model === 'string' ? renameModel(text, model, answerModel) : undefined;
  return { response, wire: renamed ?? JSON.stringify({ ...(body as object), model: answerModel }) };
}

/**
 * The decoded length of the JSON string member `"<name>":"…"` of one event passed on unread (a
 * delta's text), found without parsing the event; 0 when it has none. What a stream cut short is
 * billed by: the text the caller received, not the frames around it.
 */
export function stringMemberLength(data: string, name: string): number {
  const key = `"${name}":`;
  let at = data.indexOf(key);
  if (at < 0) return 0;
  at += key.length;
  while (data.charCodeAt(at) === 32 /* space */) at += 1;
  if (data.charCodeAt(at) !== 34 /* " */) return 0;
  let escaped = false;
  let escapes = false;
  for (let end = at + 1; end < data.length; end += 1) {
    const code = data.charCodeAt(end);
    if (escaped) escaped = false;
    else if (code === 92 /* \ */) {
      escaped = true;
      escapes = true;
    }
    // Without an escape the text is the characters between the quotes: no need to parse it.
    else if (code === 34) return escapes ? (JSON.parse(data.slice(at, end + 1)) as string).length : end - at - 1;
  }
  return 0;
}
