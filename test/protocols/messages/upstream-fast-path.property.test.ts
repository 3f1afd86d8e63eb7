import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { messagesContentBlockSchema } from '../../../src/protocols/messages/content-schema.js';
import {
  isPlainMessagesAnswerBlock,
  isPlainMessagesUpstreamEvent,
  isPlainMessagesUpstreamMessage,
} from '../../../src/protocols/messages/upstream-fast-path.js';
import { messagesUpstreamEventSchema, messagesUpstreamMessageSchema } from '../../../src/protocols/messages/upstream-schema.js';
import { maybe, mostly as mostlyValid, withoutUndefined } from '../../helpers/arbitraries.js';
import { jsonFixture, sseMessagesFixture } from '../../helpers/fixtures.js';

// Near misses on purpose: every field is sometimes of the wrong type, null where the schema wants a
// value, or joined by an own `__proto__` key (which the schema's copy drops); bodies go through
// JSON, as an upstream's do.
const mostly = <T>(good: fc.Arbitrary<T>) => mostlyValid(good, 5);
const rarely = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 1 });
const text = mostly(fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)));
const count = mostly(fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)));
const extra = fc.dictionary(fc.constantFrom('x', '__proto__', 'container', 'cache_creation'), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 2,
});
/** `fields` (undefined ones dropped) with a few extra keys, as JSON would deliver it. */
const object = (fields: fc.Arbitrary<Record<string, unknown>>) =>
  fc
    .tuple(fields.map(withoutUndefined), extra)
    .map(([known, more]) => JSON.parse(JSON.stringify({ ...more, ...known })) as Record<string, unknown>);

const usage = mostly(
  fc.oneof(
    fc.constant(null),
    object(
      fc.record({
        input_tokens: maybe(count),
        output_tokens: maybe(count),
        cache_creation_input_tokens: maybe(count),
        cache_read_input_tokens: maybe(count),
        output_tokens_details: maybe(mostly(fc.oneof(fc.constant(null), object(fc.record({ thinking_tokens: maybe(count) }))))),
      }),
    ),
  ),
);

const string = mostly(fc.string({ maxLength: 8 }));
const cacheControl = rarely(mostly(fc.oneof(fc.constant(null), fc.record({ type: fc.constant('ephemeral') }))));
/** A block of one kind with that kind's fields, mostly well-typed; the type itself sometimes another kind's or a new one. */
const blockOf = (type: string, fields: Record<string, fc.Arbitrary<unknown>>) =>
  object(fc.record({ type: mostly(fc.oneof({ arbitrary: fc.constant(type), weight: 6 }, fc.constantFrom(...blockTypes))), ...fields }));
const blockTypes = ['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'web_search_tool_result', 'image', 'novel'];
const block = mostly(
  fc.oneof(
    blockOf('text', {
      text: string,
      cache_control: cacheControl,
      citations: rarely(mostly(fc.oneof(fc.constant(null), fc.array(fc.record({ type: fc.string() }), { maxLength: 1 })))),
    }),
    blockOf('thinking', { thinking: string, signature: string }),
    blockOf('redacted_thinking', { data: string }),
    blockOf('tool_use', {
      id: string,
      name: string,
      input: mostly(fc.dictionary(fc.constantFrom('city', 'n', '__proto__'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
      cache_control: cacheControl,
      caller: rarely(mostly(fc.oneof(fc.constant(null), fc.record({ type: fc.string() })))),
    }),
    blockOf('server_tool_use', { id: string, name: string, input: fc.constant({}) }),
    blockOf('novel', { text: maybe(string) }),
  ),
);

const message = mostly(
  object(
    fc.record({
      id: maybe(text),
      type: maybe(fc.constant('message')),
      role: maybe(fc.constant('assistant')),
      model: maybe(text),
      content: maybe(mostly(fc.oneof(fc.constant(null), fc.array(block, { maxLength: 3 })))),
      stop_reason: maybe(text),
      stop_sequence: maybe(text),
      usage: maybe(usage),
    }),
  ),
);

const eventTypes = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
  'novel_event',
];
const index = mostly(fc.nat(4));
/** An event of one type with that type's fields, mostly well-typed; the type itself sometimes another one. */
const eventOf = (type: string, fields: Record<string, fc.Arbitrary<unknown>>) =>
  object(
    fc.record({
      type: mostly(fc.oneof({ arbitrary: fc.constant(type), weight: 6 }, fc.constantFrom(...eventTypes))),
      error: rarely(fc.jsonValue({ maxDepth: 1 })),
      ...fields,
    }),
  );
const event = mostly(
  fc.oneof(
    eventOf('message_start', { message }),
    eventOf('content_block_start', { index, content_block: block }),
    eventOf('content_block_delta', {
      index,
      delta: mostly(
        object(
          fc.record({
            type: mostly(fc.constantFrom('text_delta', 'thinking_delta', 'signature_delta', 'input_json_delta')),
            text: maybe(text),
            partial_json: maybe(text),
            thinking: maybe(text),
            signature: maybe(text),
          }),
        ),
      ),
    }),
    eventOf('content_block_stop', { index }),
    eventOf('message_delta', {
      delta: maybe(mostly(fc.oneof(fc.constant(null), object(fc.record({ stop_reason: maybe(text), stop_sequence: maybe(text) }))))),
      usage: maybe(usage),
    }),
    eventOf('message_stop', {}),
    eventOf('ping', {}),
    eventOf('error', { error: mostly(object(fc.record({ type: maybe(text), message: maybe(text) }))) }),
    eventOf('novel_event', { index }),
  ),
);

/**
 * Whatever `isPlain` accepts, `schema` parses to an equal value (so a decoder that skips the schema
 * reads the same answer); and the generator must both reach the fast path and show it values the
 * schema takes but the fast path leaves to it (the near misses), or the property says little.
 */
function expectSameAsSchema(values: fc.Arbitrary<unknown>, isPlain: (value: unknown) => boolean, schema: z.ZodType, minimum: number) {
  let accepted = 0;
  let leftToSchema = 0;
  fc.assert(
    fc.property(values, (value) => {
      if (!isPlain(value)) {
        if (schema.safeParse(value).success) leftToSchema += 1;
        return;
      }
      accepted += 1;
      expect(schema.parse(value)).toStrictEqual(value);
    }),
    { numRuns: 4000 },
  );
  expect(accepted).toBeGreaterThan(minimum);
  expect(leftToSchema).toBeGreaterThan(minimum);
}

describe('the Messages upstream fast path', () => {
  it('should accept only answers the message schema returns unchanged', () => {
    expectSameAsSchema(message, isPlainMessagesUpstreamMessage, messagesUpstreamMessageSchema, 200);
  });

  it('should accept only answer blocks the content-block schema returns unchanged', () => {
    expectSameAsSchema(block, isPlainMessagesAnswerBlock, messagesContentBlockSchema, 200);
  });

  it('should accept only stream events the event schema returns unchanged', () => {
    expectSameAsSchema(event, isPlainMessagesUpstreamEvent, messagesUpstreamEventSchema, 200);
  });

  it('should accept every event type the decoder reads but error', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(event, (value) => {
        if (isPlainMessagesUpstreamEvent(value)) seen.add(value.type);
      }),
      { numRuns: 4000 },
    );
    expect([...seen].sort()).toEqual(eventTypes.filter((type) => type !== 'error' && type !== 'novel_event').sort());
  });

  it("should take Anthropic's recorded streams whole, and leave the error event to the schema", () => {
    for (const name of ['upstream-text', 'upstream-thinking', 'upstream-tool-call']) {
      const events = sseMessagesFixture('messages', name).map((frame) => JSON.parse(frame.data) as unknown);
      expect(events.filter((value) => !isPlainMessagesUpstreamEvent(value))).toEqual([]);
    }
    const failed = sseMessagesFixture('messages', 'upstream-stream-error').map((frame) => JSON.parse(frame.data) as { type: string });
    expect(failed.filter((value) => !isPlainMessagesUpstreamEvent(value)).map((value) => value.type)).toEqual(['error']);
  });

  it("should take Anthropic's recorded answer and its thinking, text and tool-use blocks", () => {
    const answer = jsonFixture('messages', 'upstream-response');
    expect(isPlainMessagesUpstreamMessage(answer)).toBe(true);
    expect((answer.content as unknown[]).every(isPlainMessagesAnswerBlock)).toBe(true);
  });

  it('should leave numbers JSON cannot carry, and own __proto__ keys, to the schema', () => {
    expect(isPlainMessagesUpstreamEvent({ type: 'content_block_stop', index: Number.POSITIVE_INFINITY })).toBe(false);
    expect(isPlainMessagesUpstreamEvent({ type: 'message_delta', usage: { output_tokens: Number.NaN } })).toBe(false);
    expect(isPlainMessagesUpstreamEvent(JSON.parse('{"type":"ping","__proto__":{"x":1}}'))).toBe(false);
    expect(isPlainMessagesUpstreamMessage(JSON.parse('{"content":[{"type":"text","text":"hi","__proto__":null}]}'))).toBe(false);
    expect(isPlainMessagesAnswerBlock(JSON.parse('{"type":"tool_use","id":"t","name":"n","input":{"__proto__":{"a":1}}}'))).toBe(false);
  });
});
