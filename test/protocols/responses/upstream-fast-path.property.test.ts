import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlainResponsesStreamEvent } from '../../../src/protocols/responses/upstream-fast-path.js';
import { UpstreamStreamEventSchema } from '../../../src/protocols/responses/upstream-schema.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

/** Mostly well-typed values, sometimes any JSON: the check must turn the odd ones away. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 2 });
const withoutUndefined = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
const text = mostly(fc.oneof(fc.string(), fc.constant(null)));
const index = mostly(fc.oneof(fc.nat(), fc.constant(null)));
/** Usually absent: an event with a nested object is the schema's. */
const rarely = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: value, weight: 1 });

const event = fc
  .record({
    type: mostly(fc.constantFrom('response.output_text.delta', 'response.output_text.done', 'response.function_call_arguments.delta', 'error')),
    sequence_number: maybe(fc.nat()),
    item_id: maybe(text),
    output_index: maybe(index),
    content_index: maybe(index),
    summary_index: maybe(index),
    delta: maybe(text),
    text: maybe(text),
    refusal: maybe(text),
    arguments: maybe(text),
    input: maybe(text),
    logprobs: maybe(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 })),
    part: rarely(fc.jsonValue({ maxDepth: 2 })),
    item: rarely(fc.jsonValue({ maxDepth: 2 })),
    response: rarely(fc.jsonValue({ maxDepth: 2 })),
    extra_vendor_field: maybe(fc.jsonValue({ maxDepth: 2 })),
  })
  .map(withoutUndefined);

describe('isPlainResponsesStreamEvent', () => {
  it('should accept only events the stream-event schema returns unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mostly(event), (value) => {
        if (!isPlainResponsesStreamEvent(value)) return;
        accepted += 1;
        expect(UpstreamStreamEventSchema.parse(value)).toEqual(value);
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the fast path often, or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
  });

  it('should refuse an own __proto__ key, which the schema drops', () => {
    expect(isPlainResponsesStreamEvent(JSON.parse('{"type":"response.output_text.delta","__proto__":{"x":1}}'))).toBe(false);
  });

  it("should take OpenAI's delta events and leave events with a response, an item or a part to the schema", () => {
    const events = sseMessagesFixture('responses', 'upstream-text').map((message) => JSON.parse(message.data) as { type: string });
    const taken = events.filter(isPlainResponsesStreamEvent).map((value) => value.type);
    expect(taken).toEqual(['response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done']);
  });
});
