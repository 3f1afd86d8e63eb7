import type { UpstreamStreamEvent } from './upstream-schema.js';

/*
 * The lenient stream-event schema returns, for a well-formed event, a copy equal to its input. This
 * check recognises the events that carry no nested object (the deltas, the `*.done` texts) cheaply,
 * so the decoder can skip the schema for them; events with a `response`, `item` or `part` still go
 * through it. A property test holds it to that: whatever it accepts, the schema parses to an equal value.
 */

type Json = Record<string, unknown>;

const stringFields = ['item_id', 'delta', 'text', 'refusal', 'arguments', 'input'] as const;
const numberFields = ['output_index', 'content_index', 'summary_index'] as const;
const objectFields = ['response', 'item', 'part'] as const;

/** Whether `value` is a stream event the schema would return unchanged, with no nested object to check. */
export function isPlainResponsesStreamEvent(value: unknown): value is UpstreamStreamEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // An own `__proto__` key (JSON.parse makes one) is dropped by the schema: leave it to the schema.
  if (Object.hasOwn(value, '__proto__')) return false;
  const event = value as Json;
  if (typeof event.type !== 'string') return false;
  for (const key of objectFields) if (event[key] !== undefined) return false;
  for (const key of stringFields) {
    const field = event[key];
    if (field !== undefined && field !== null && typeof field !== 'string') return false;
  }
  for (const key of numberFields) {
    const field = event[key];
    if (field !== undefined && field !== null && (typeof field !== 'number' || !Number.isFinite(field))) return false;
  }
  return true;
}
