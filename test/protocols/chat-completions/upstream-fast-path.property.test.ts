import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybe, mostly as mostlyValid, withoutUndefined } from '../../helpers/arbitraries.js';
import { isPlainChatChunk, isPlainChatResponse } from '../../../src/protocols/chat-completions/upstream-fast-path.js';
import { chatUpstreamChunkSchema, chatUpstreamResponseSchema } from '../../../src/protocols/chat-completions/upstream-schema.js';
import { sseFixture } from '../../helpers/fixtures.js';

const mostly = <T>(good: fc.Arbitrary<T>) => mostlyValid(good, 5);

const text = mostly(fc.oneof(fc.string(), fc.constant(null)));
const count = mostly(fc.oneof(fc.nat(), fc.constant(null)));
const usage = fc.oneof(
  fc.constant(null),
  fc
    .record({
      prompt_tokens: maybe(count),
      completion_tokens: maybe(count),
      total_tokens: maybe(count),
      prompt_tokens_details: maybe(mostly(fc.record({ cached_tokens: maybe(count) }).map(withoutUndefined))),
      completion_tokens_details: maybe(mostly(fc.record({ reasoning_tokens: maybe(count) }).map(withoutUndefined))),
    })
    .map(withoutUndefined),
);
const message = fc
  .record({
    role: maybe(text),
    content: maybe(mostly(fc.oneof(fc.string(), fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }), { maxLength: 2 })))),
    refusal: maybe(text),
    reasoning_content: maybe(text),
    tool_calls: maybe(
      mostly(
        fc.array(
          fc
            .record({
              index: maybe(mostly(fc.nat(3))),
              id: maybe(text),
              type: maybe(text),
              function: maybe(
                mostly(
                  fc
                    .record({
                      name: maybe(text),
                      // llama.cpp sends an object.
                      arguments: maybe(mostly(fc.oneof(fc.string(), fc.constant(null), fc.dictionary(fc.string(), fc.nat())))),
                    })
                    .map(withoutUndefined),
                ),
              ),
              custom: fc.option(fc.record({ name: fc.string(), input: fc.string() }), { nil: undefined, freq: 8 }),
            })
            .map(withoutUndefined),
          { maxLength: 2 },
        ),
      ),
    ),
    annotations: maybe(mostly(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }))),
    extra_vendor_field: maybe(fc.jsonValue({ maxDepth: 2 })),
  })
  .map(withoutUndefined);
const envelope = (choice: fc.Arbitrary<unknown>) =>
  fc
    .record({
      id: maybe(text),
      object: maybe(fc.string()),
      model: maybe(text),
      choices: mostly(fc.array(choice, { maxLength: 2 })),
      usage: maybe(mostly(usage)),
      service_tier: maybe(text),
      system_fingerprint: maybe(text),
      error: fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined, freq: 8 }),
    })
    .map(withoutUndefined);
const chunk = envelope(
  mostly(
    fc
      .record({ index: maybe(count), delta: maybe(mostly(message)), finish_reason: maybe(text), logprobs: maybe(fc.constant(null)) })
      .map(withoutUndefined),
  ),
);
const response = envelope(
  mostly(
    fc
      .record({
        index: maybe(count),
        message: maybe(mostly(message)),
        finish_reason: maybe(text),
        logprobs: maybe(fc.jsonValue({ maxDepth: 1 })),
      })
      .map(withoutUndefined),
  ),
);

describe('the Chat upstream fast path', () => {
  it('should accept only chunks the chunk schema returns unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(chunk, (value) => {
        if (!isPlainChatChunk(value)) return;
        accepted += 1;
        expect(chatUpstreamChunkSchema.parse(value)).toEqual(value);
      }),
      { numRuns: 2000 },
    );
    // The generator must reach the fast path often, or the property says nothing.
    expect(accepted).toBeGreaterThan(40);
  });

  it('should accept only answers the response schema returns unchanged', () => {
    let accepted = 0;
    fc.assert(
      fc.property(response, (value) => {
        if (!isPlainChatResponse(value)) return;
        accepted += 1;
        expect(chatUpstreamResponseSchema.parse(value)).toEqual(value);
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(40);
  });

  it("should take OpenAI's own text and tool-call chunks", () => {
    const chunks = (name: string) =>
      sseFixture('chat-completions', name)
        .split('\n\n')
        .map((frame) => frame.replace(/^data: /, ''))
        .filter((data) => data.startsWith('{'))
        .map((data) => JSON.parse(data) as unknown);
    expect(chunks('upstream-text').every(isPlainChatChunk)).toBe(true);
    expect(chunks('upstream-tool-call').every(isPlainChatChunk)).toBe(true);
    // llama.cpp's arguments as an object are left to the schema.
    expect(
      isPlainChatChunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'f', arguments: { a: 1 } } }] } }] }),
    ).toBe(false);
  });

  // Found by the property on Node 24 (seed 1000911752): the schema drops an own `__proto__` key.
  it('should leave objects with an own __proto__ key to the schema', () => {
    expect(isPlainChatChunk(JSON.parse('{"choices":[],"usage":{"__proto__":null}}'))).toBe(false);
    expect(isPlainChatChunk(JSON.parse('{"__proto__":{"x":1},"choices":[]}'))).toBe(false);
    expect(isPlainChatResponse(JSON.parse('{"choices":[{"index":0,"message":{"__proto__":null,"content":"hi"}}]}'))).toBe(false);
    expect(isPlainChatChunk(JSON.parse('{"choices":[],"usage":{"prompt_tokens":1}}'))).toBe(true);
  });
});
