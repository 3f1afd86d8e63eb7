import type { z } from 'zod';
import type { UpstreamItem, UpstreamMessageItem, UpstreamOutputText, UpstreamResponse, UpstreamStreamEvent } from './upstream-schema.js';

/*
 * The lenient stream-event schema returns, for a well-formed event, a copy equal to its input. This
 * check recognises well-formed events with direct tests, so the decoder can skip the schema for
 * them: the deltas and `*.done` texts, and the events carrying a `response`, an `item` or a `part`
 * whose fields the schema reads are of the expected types. Anything else goes to the schema. A
 * property test holds it to that: whatever it accepts, the schema parses to an equal value.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
// An own `__proto__` key (JSON.parse makes one) is dropped by the schema's object copy.
const isPlainRecord = (value: unknown): value is Json => isRecord(value) && !Object.hasOwn(value, '__proto__');
const isNullish = (value: unknown): value is null | undefined => value === undefined || value === null;
const isMaybeString = (value: unknown): boolean => isNullish(value) || typeof value === 'string';
const isMaybeIndex = (value: unknown): boolean => isNullish(value) || (typeof value === 'number' && Number.isFinite(value));

/** `item` and `part`: an object with a string `type`. */
const isMaybeTyped = (value: unknown): boolean => isNullish(value) || (isPlainRecord(value) && typeof value.type === 'string');

/** Whether `value` is a Response object the response schema would return unchanged. */
export function isPlainResponsesObject(value: unknown): value is UpstreamResponse {
  if (!isPlainRecord(value)) return false;
  const details = value.incomplete_details;
  return (
    isMaybeString(value.id) &&
    isMaybeString(value.model) &&
    isMaybeString(value.status) &&
    (isNullish(value.output) || Array.isArray(value.output)) &&
    (isNullish(details) || (isPlainRecord(details) && isMaybeString(details.reason)))
  );
}

const isMaybeResponse = (value: unknown): boolean => isNullish(value) || isPlainResponsesObject(value);

const isMaybeArray = (value: unknown): boolean => isNullish(value) || Array.isArray(value);

/** Whether `value` is an output item with a string `type`, as the item schema reads it. */
export function isPlainOutputItem(value: unknown): value is UpstreamItem {
  return isPlainRecord(value) && typeof value.type === 'string';
}

/** Whether `value` is a `message` item the message schema would return unchanged. */
export function isPlainMessageItem(value: unknown): value is UpstreamMessageItem {
  if (!isPlainRecord(value) || value.type !== 'message') return false;
  if (!isMaybeString(value.id) || !isMaybeString(value.status) || !isMaybeString(value.phase)) return false;
  const content = value.content;
  if (isNullish(content)) return true;
  return Array.isArray(content) && content.every((part) => isPlainRecord(part) && typeof part.type === 'string');
}

/** Whether `value` is an `output_text` part the part schema would return unchanged. */
export function isPlainOutputTextPart(value: unknown): value is UpstreamOutputText {
  return (
    isPlainRecord(value) &&
    value.type === 'output_text' &&
    typeof value.text === 'string' &&
    isMaybeArray(value.annotations) &&
    isMaybeArray(value.logprobs)
  );
}

/** Each field the schema reads, with the check that its value passes through unchanged. */
const fieldChecks: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ['item_id', isMaybeString],
  ['delta', isMaybeString],
  ['text', isMaybeString],
  ['refusal', isMaybeString],
  ['arguments', isMaybeString],
  ['input', isMaybeString],
  ['output_index', isMaybeIndex],
  ['content_index', isMaybeIndex],
  ['summary_index', isMaybeIndex],
  ['response', isMaybeResponse],
  ['item', isMaybeTyped],
  ['part', isMaybeTyped],
]);

/**
 * `schema.safeParse(value)`, skipped when `isPlain` vouches that the schema would return `value`
 * unchanged: the one way the decoders take these shortcuts.
 */
export function parseUnlessPlain<S extends z.ZodType>(
  schema: S,
  isPlain: (value: unknown) => value is z.output<S>,
  value: unknown,
): { success: true; data: z.output<S> } | { success: false } {
  if (isPlain(value)) return { success: true, data: value };
  const parsed = schema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false };
}

/** Whether `value` is a stream event the schema would return unchanged. */
export function isPlainResponsesStreamEvent(value: unknown): value is UpstreamStreamEvent {
  if (!isPlainRecord(value) || typeof value.type !== 'string') return false;
  // One pass over the event's own keys: a delta has about seven, the schema names twelve.
  for (const key in value) {
    const check = fieldChecks.get(key);
    if (check !== undefined && !check(value[key])) return false;
  }
  return true;
}
