import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybe, mostly as mostlyValid, withoutUndefined } from '../../helpers/arbitraries.js';
import {
  isPlainMessageItem,
  isPlainOutputItem,
  isPlainOutputTextPart,
  isPlainResponsesObject,
  isPlainResponsesStreamEvent,
} from '../../../src/protocols/responses/upstream-fast-path.js';
import {
  UpstreamItemSchema,
  UpstreamMessageItemSchema,
  UpstreamOutputTextSchema,
  UpstreamResponseSchema,
  UpstreamStreamEventSchema,
} from '../../../src/protocols/responses/upstream-schema.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

const mostly = <T>(good: fc.Arbitrary<T>) => mostlyValid(good, 5);
const text = mostly(fc.oneof(fc.string(), fc.constant(null)));
const index = mostly(fc.oneof(fc.nat(), fc.constant(null)));
/** Sometimes present. */
const rarely = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 1 });
const extra = fc.dictionary(fc.constantFrom('x', 'y', '__proto__', 'usage'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
/** A `part` or an `item`: an object with a `type`, mostly. */
const typed = mostly(fc.record({ type: mostly(fc.string()), text: maybe(text) }).map(withoutUndefined));
/** A `response` object, mostly well-typed in the fields the schema reads. */
const response = mostly(
  fc
    .tuple(
      fc
        .record({
          id: maybe(text),
          model: maybe(text),
          status: maybe(text),
          output: maybe(mostly(fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), fc.constant(null)))),
          usage: maybe(fc.jsonValue({ maxDepth: 1 })),
          error: maybe(fc.jsonValue({ maxDepth: 1 })),
          incomplete_details: maybe(
            mostly(
              fc.oneof(
                fc.constant(null),
                fc.tuple(fc.record({ reason: maybe(text) }).map(withoutUndefined), extra).map(([fields, more]) => ({ ...more, ...fields })),
              ),
            ),
          ),
        })
        .map(withoutUndefined),
      extra,
    )
    .map(([fields, more]) => JSON.parse(JSON.stringify({ ...more, ...fields })) as unknown),
);

const event = fc
  .record({
    type: mostly(
      fc.constantFrom('response.output_text.delta', 'response.output_text.done', 'response.function_call_arguments.delta', 'error'),
    ),
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
    part: rarely(typed),
    item: rarely(typed),
    response: rarely(response),
    extra_vendor_field: maybe(fc.jsonValue({ maxDepth: 2 })),
  })
  .map(withoutUndefined);

describe('isPlainResponsesStreamEvent', () => {
  it('should accept only events the stream-event schema returns unchanged', () => {
    let accepted = 0;
    let nestedAccepted = 0;
    fc.assert(
      fc.property(mostly(event), (value) => {
        if (!isPlainResponsesStreamEvent(value)) return;
        accepted += 1;
        const nested = value as Record<string, unknown>;
        if (nested.response != null || nested.item != null || nested.part != null) nestedAccepted += 1;
        expect(UpstreamStreamEventSchema.parse(value)).toEqual(value);
      }),
      { numRuns: 6000 },
    );
    // The generator must reach the fast path often, nested objects included, or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
    expect(nestedAccepted).toBeGreaterThan(30);
  });

  it('should refuse an own __proto__ key, which the schema drops', () => {
    expect(isPlainResponsesStreamEvent(JSON.parse('{"type":"response.output_text.delta","__proto__":{"x":1}}'))).toBe(false);
  });

  it('should refuse an own __proto__ key in a nested response, item or part', () => {
    for (const field of ['response', 'item', 'part']) {
      const event = JSON.parse(`{"type":"response.created","${field}":{"type":"message","__proto__":{"x":1}}}`) as unknown;
      expect(isPlainResponsesStreamEvent(event)).toBe(false);
    }
  });

  it("should take every event of OpenAI's recorded text stream", () => {
    const events = sseMessagesFixture('responses', 'upstream-text').map((message) => JSON.parse(message.data) as { type: string });
    expect(events.filter(isPlainResponsesStreamEvent)).toHaveLength(events.length);
    expect(events.length).toBeGreaterThan(6);
  });
});

/** A message item, mostly well-typed; parts mostly `output_text`. */
const outputTextPart = mostly(
  fc
    .tuple(
      fc
        .record({
          type: mostly(fc.constantFrom('output_text', 'refusal')),
          text: maybe(mostly(fc.string())),
          annotations: maybe(mostly(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }))),
          logprobs: maybe(mostly(fc.oneof(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), fc.constant(null)))),
        })
        .map(withoutUndefined),
      extra,
    )
    .map(([fields, more]) => JSON.parse(JSON.stringify({ ...more, ...fields })) as unknown),
);
const messageItem = mostly(
  fc
    .tuple(
      fc
        .record({
          type: mostly(fc.constantFrom('message', 'function_call')),
          id: maybe(text),
          status: maybe(text),
          phase: maybe(text),
          role: maybe(fc.constant('assistant')),
          content: maybe(mostly(fc.oneof(fc.array(outputTextPart, { maxLength: 3 }), fc.constant(null)))),
        })
        .map(withoutUndefined),
      extra,
    )
    .map(([fields, more]) => JSON.parse(JSON.stringify({ ...more, ...fields })) as unknown),
);

describe('the non-streaming fast checks', () => {
  const cases = [
    { name: 'isPlainResponsesObject', check: isPlainResponsesObject, schema: UpstreamResponseSchema, values: response },
    { name: 'isPlainOutputItem', check: isPlainOutputItem, schema: UpstreamItemSchema, values: messageItem },
    { name: 'isPlainMessageItem', check: isPlainMessageItem, schema: UpstreamMessageItemSchema, values: messageItem },
    { name: 'isPlainOutputTextPart', check: isPlainOutputTextPart, schema: UpstreamOutputTextSchema, values: outputTextPart },
  ];
  for (const { name, check, schema, values } of cases) {
    it(`${name} should accept only values its schema returns unchanged`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(values, (value) => {
          if (!check(value)) return;
          accepted += 1;
          expect(schema.parse(value)).toEqual(value);
        }),
        { numRuns: 3000 },
      );
      expect(accepted).toBeGreaterThan(100);
    });
  }
});
