// Helpers for the stream decoders' template tests: a stream decoded whole, and the same with a count
// of the events parsed on the way.
import type { CanonicalStreamEvent } from '../../src/canonical/index.js';

/** What the three upstream stream decoders have in common. */
export interface StreamDecoder {
  decode(message: { data: string; event?: string }): CanonicalStreamEvent[];
  end(): CanonicalStreamEvent[];
}

/** A stream's events as the decoder gives them, errors as their codes. */
export function decodeAll(decoder: StreamDecoder, frames: readonly string[]): unknown[] {
  const events: CanonicalStreamEvent[] = [];
  for (const data of frames) events.push(...decoder.decode({ data }));
  events.push(...decoder.end());
  return events.map((event) => (event.type === 'error' ? { type: 'error', code: event.error.code } : event));
}

/**
 * What a stream of `frames` decodes to, with how many whole events were parsed on the way (an
 * escaped text alone goes through the parser too, and is not counted) and the texts it gave.
 */
export function decodeCountingParses(decoder: StreamDecoder, frames: readonly string[]) {
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (text.startsWith('{')) parsed += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const events = decodeAll(decoder, frames);
    /** The deltas of the events of `type` (`text-delta`, `reasoning-delta`, `tool-call-delta`). */
    const deltasOf = (type: CanonicalStreamEvent['type']) =>
      events.filter((event) => (event as CanonicalStreamEvent).type === type).map((event) => (event as { delta: string }).delta);
    return { parsed, texts: deltasOf('text-delta'), deltasOf };
  } finally {
    JSON.parse = parse;
  }
}
