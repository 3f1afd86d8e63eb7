import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybe, mostly, withoutUndefined } from '../../helpers/arbitraries.js';
import { decodeMessagesRequestBySchema } from '../../../src/protocols/messages/request.js';
import { decodePlainMessagesRequest } from '../../../src/protocols/messages/request-fast-path.js';

const number = mostly(
  fc.oneof(
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 4 },
    { arbitrary: fc.integer(), weight: 4 },
    { arbitrary: fc.constant(null), weight: 1 },
  ),
);
const integer = mostly(
  fc.oneof({ arbitrary: fc.integer(), weight: 9 }, fc.constant(2 ** 60), fc.constant(1.5), fc.constant(-1), fc.constant(null)),
);
const textBlock = fc
  .record({
    type: mostly(fc.constantFrom('text', 'text', 'image')),
    text: mostly(fc.string()),
    cache_control: maybe(fc.constant({ type: 'ephemeral' }), 8),
  })
  .map(withoutUndefined);
const content = fc.oneof({ arbitrary: fc.string(), weight: 3 }, { arbitrary: fc.array(textBlock, { maxLength: 3 }), weight: 2 });
const message = fc
  .record({
    role: mostly(fc.constantFrom('user', 'assistant', 'user', 'assistant', 'system')),
    content: mostly(content),
    name: maybe(fc.string(), 12),
  })
  .map(withoutUndefined);
const body = fc
  .record({
    model: mostly(fc.oneof({ arbitrary: fc.string({ minLength: 1 }), weight: 9 }, fc.constant(''))),
    max_tokens: mostly(integer),
    messages: mostly(fc.array(message, { maxLength: 4 })),
    system: maybe(mostly(content)),
    stream: maybe(mostly(fc.boolean())),
    stop_sequences: maybe(mostly(fc.array(fc.string(), { maxLength: 2 })), 4),
    temperature: maybe(number),
    top_p: maybe(number, 4),
    top_k: maybe(integer, 4),
    metadata: maybe(mostly(fc.record({ user_id: mostly(fc.string()), other: maybe(fc.string(), 6) }).map(withoutUndefined)), 4),
    tools: maybe(fc.array(fc.record({ name: fc.string(), input_schema: fc.constant({ type: 'object' }) }), { maxLength: 1 }), 10),
    thinking: maybe(fc.constant({ type: 'enabled', budget_tokens: 1024 }), 10),
    vendor_extra: maybe(fc.jsonValue({ maxDepth: 1 }), 10),
  })
  .map(withoutUndefined);

describe('the Messages request fast path', () => {
  it('should decode every body it accepts exactly as the schema decoder does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: body, weight: 9 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }), (value) => {
        const fast = decodePlainMessagesRequest(value);
        if (fast === undefined) return;
        accepted += 1;
        expect(fast).toStrictEqual(decodeMessagesRequestBySchema(value));
      }),
      { numRuns: 6000 },
    );
    // The generator must reach the fast path often (about 1 body in 30), or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
  });

  it('should take what Claude Code and the SDKs send: system blocks, text turns, metadata, sampling', () => {
    const request = decodePlainMessagesRequest({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      ],
      metadata: { user_id: 'user_1' },
      temperature: 1,
      stream: true,
    });
    expect(request).toStrictEqual({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      ],
      maxOutputTokens: 1024,
      stream: true,
      system: [{ type: 'text', text: 'Be brief.' }],
      sampling: { temperature: 1 },
      metadata: { userId: 'user_1' },
    });
  });

  it('should leave to the schema decoder what it cannot decode alone', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
    expect(decodePlainMessagesRequest({ ...base, max_tokens: -1 })).toBeUndefined();
    expect(decodePlainMessagesRequest({ ...base, model: '' })).toBeUndefined();
    expect(
      decodePlainMessagesRequest({ ...base, system: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }] }),
    ).toBeUndefined();
    expect(decodePlainMessagesRequest({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }] })).toBeUndefined();
    expect(decodePlainMessagesRequest({ model: 'm', messages: [] })).toBeUndefined();
  });
});
