import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybe, mostly, withoutUndefined } from '../../helpers/arbitraries.js';
import { decodeChatRequestBySchema } from '../../../src/protocols/chat-completions/request.js';
import { decodePlainChatRequest } from '../../../src/protocols/chat-completions/request-fast-path.js';

const number = mostly(
  fc.oneof(
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 4 },
    { arbitrary: fc.integer(), weight: 4 },
    { arbitrary: fc.constant(null), weight: 1 },
  ),
);
const integer = mostly(fc.oneof({ arbitrary: fc.integer(), weight: 9 }, fc.constant(2 ** 60), fc.constant(1.5), fc.constant(null)));
const text = fc.oneof({ arbitrary: fc.string(), weight: 6 }, { arbitrary: fc.constant(''), weight: 1 });
const message = fc
  .record({
    role: mostly(fc.constantFrom('system', 'user', 'user', 'assistant', 'assistant', 'system', 'developer', 'tool')),
    content: mostly(
      fc.oneof(
        { arbitrary: text, weight: 8 },
        { arbitrary: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }), { maxLength: 2 }), weight: 1 },
      ),
    ),
    name: maybe(fc.string(), 12),
    tool_call_id: maybe(fc.string(), 12),
  })
  .map(withoutUndefined);
const body = fc
  .record({
    model: mostly(fc.string()),
    messages: mostly(fc.array(message, { maxLength: 4 })),
    stream: maybe(mostly(fc.boolean())),
    stream_options: maybe(mostly(fc.record({ include_usage: maybe(mostly(fc.boolean())) }).map(withoutUndefined))),
    max_completion_tokens: maybe(integer, 3),
    max_tokens: maybe(integer, 3),
    temperature: maybe(number),
    top_p: maybe(number),
    presence_penalty: maybe(number, 4),
    frequency_penalty: maybe(number, 4),
    seed: maybe(integer, 4),
    n: maybe(fc.constantFrom(1, 2), 10),
    stop: maybe(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 })), 10),
    user: maybe(fc.string(), 10),
    tools: maybe(fc.array(fc.record({ type: fc.constant('function'), function: fc.record({ name: fc.string() }) }), { maxLength: 1 }), 10),
    vendor_extra: maybe(fc.jsonValue({ maxDepth: 1 }), 10),
  })
  .map(withoutUndefined);

describe('the Chat request fast path', () => {
  it('should decode every body it accepts exactly as the schema decoder does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: body, weight: 9 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }), (value) => {
        const fast = decodePlainChatRequest(value);
        if (fast === undefined) return;
        accepted += 1;
        expect(fast).toStrictEqual(decodeChatRequestBySchema(value));
      }),
      { numRuns: 3000 },
    );
    // The generator must reach the fast path often, or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
  });

  it('should take the bench and SDK shapes: system and user text, a token limit, sampling, stream options', () => {
    const request = decodePlainChatRequest({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 256,
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request).toStrictEqual({
      model: 'gpt-4o',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      sampling: { temperature: 0.2 },
      maxOutputTokens: 256,
      includeUsage: true,
      stream: true,
    });
  });

  it('should leave to the schema decoder what it cannot decode alone', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
    expect(decodePlainChatRequest({ ...base, temperature: null })).toBeUndefined();
    expect(decodePlainChatRequest({ ...base, max_tokens: 1.5 })).toBeUndefined();
    expect(decodePlainChatRequest({ ...base, n: 2 })).toBeUndefined();
    expect(decodePlainChatRequest({ ...base, messages: [{ role: 'developer', content: 'x' }] })).toBeUndefined();
    expect(decodePlainChatRequest({ ...base, messages: [{ role: 'user', content: 'x', name: 'ann' }] })).toBeUndefined();
    expect(decodePlainChatRequest({ model: 'm' })).toBeUndefined();
  });
});
