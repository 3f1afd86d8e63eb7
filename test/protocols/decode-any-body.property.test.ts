import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { chatCodec } from '../../src/protocols/chat-completions/index.js';
import type { InboundCodec } from '../../src/protocols/codec.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';

/** Mostly `good`, sometimes any JSON value: bodies near enough to valid that many decode. */
const mostly = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });
/** Usually absent, sometimes any JSON value. */
const rarely = fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });

const part = mostly(
  fc.record({
    type: fc.constantFrom('text', 'input_text', 'output_text', 'image_url', 'tool_result', 'thinking', 'unknown_kind'),
    text: mostly(fc.string({ minLength: 1 })),
  }),
);
const message = mostly(
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'x'),
    content: mostly(fc.oneof(fc.string({ minLength: 1 }), fc.array(part, { minLength: 1, maxLength: 3 }))),
  }),
);
const body = mostly(
  fc
    .record({
      model: mostly(fc.string({ minLength: 1 })),
      messages: mostly(fc.array(message, { minLength: 1, maxLength: 4 })),
      input: mostly(fc.oneof(fc.string(), fc.array(message, { maxLength: 4 }))),
      max_tokens: mostly(fc.nat(100_000)),
      tools: rarely,
      tool_choice: rarely,
      stream: mostly(fc.boolean()),
      thinking: rarely,
      reasoning: rarely,
      temperature: rarely,
    })
    .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))),
);

const codecs: InboundCodec[] = [chatCodec, responsesCodec, messagesCodec];

describe('decodeRequest on any JSON body', () => {
  for (const codec of codecs) {
    it(`should decode or refuse with a 400 naming the problem, never crash (${codec.protocol})`, () => {
      fc.assert(
        fc.property(body, (value) => {
          try {
            const request = codec.decodeRequest(value);
            expect(typeof request.model).toBe('string');
            expect(Array.isArray(request.messages)).toBe(true);
          } catch (error) {
            if (!GatewayError.isInstance(error)) throw error;
            expect(error.status).toBe(400);
            expect(error.message.length).toBeGreaterThan(0);
          }
        }),
        { numRuns: 400 },
      );
    });
  }
});
