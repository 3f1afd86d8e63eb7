import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maybe, mostly, withoutUndefined } from '../../helpers/arbitraries.js';
import { decodeResponsesRequestBySchema } from '../../../src/protocols/responses/request.js';
import { decodePlainResponsesRequest } from '../../../src/protocols/responses/request-fast-path.js';

const number = mostly(
  fc.oneof(
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 4 },
    { arbitrary: fc.integer(), weight: 4 },
    { arbitrary: fc.constant(null), weight: 1 },
  ),
);
const count = mostly(
  fc.oneof({ arbitrary: fc.nat(), weight: 9 }, fc.constant(-1), fc.constant(2 ** 60), fc.constant(1.5), fc.constant(null)),
);
const text = fc.oneof({ arbitrary: fc.string(), weight: 6 }, { arbitrary: fc.constant(''), weight: 1 });
const item = fc
  .record({
    type: maybe(mostly(fc.constantFrom('message', 'message', 'function_call')), 3),
    role: mostly(fc.constantFrom('user', 'user', 'assistant', 'assistant', 'system', 'developer')),
    content: mostly(
      fc.oneof(
        { arbitrary: text, weight: 8 },
        { arbitrary: fc.array(fc.record({ type: fc.constant('input_text'), text: fc.string() }), { maxLength: 2 }), weight: 1 },
      ),
    ),
    id: maybe(fc.string(), 12),
    status: maybe(fc.constantFrom('completed', 'in_progress'), 12),
  })
  .map(withoutUndefined);
const body = fc
  .record({
    model: mostly(fc.oneof({ arbitrary: fc.string({ minLength: 1 }), weight: 9 }, fc.constant(''))),
    // Usually there: an array of items more often than a string.
    input: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 1 },
      {
        arbitrary: mostly(fc.oneof({ arbitrary: text, weight: 1 }, { arbitrary: fc.array(item, { maxLength: 4 }), weight: 3 })),
        weight: 7,
      },
    ),
    instructions: maybe(mostly(fc.oneof({ arbitrary: text, weight: 5 }, fc.constant(null)))),
    stream: maybe(mostly(fc.boolean())),
    max_output_tokens: maybe(count, 3),
    temperature: maybe(number),
    top_p: maybe(number),
    tools: maybe(fc.array(fc.record({ type: fc.constant('function'), name: fc.string() }), { maxLength: 1 }), 10),
    store: maybe(fc.boolean(), 10),
    vendor_extra: maybe(fc.jsonValue({ maxDepth: 1 }), 10),
  })
  .map(withoutUndefined);

describe('the Responses request fast path', () => {
  it('should decode every body it accepts exactly as the schema decoder does', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: body, weight: 9 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 }), (value) => {
        const fast = decodePlainResponsesRequest(value);
        if (fast === undefined) return;
        accepted += 1;
        expect(fast).toStrictEqual(decodeResponsesRequestBySchema(value));
      }),
      { numRuns: 4000 },
    );
    // The generator must reach the fast path often, or the property says nothing.
    expect(accepted).toBeGreaterThan(100);
  });

  it('should take the SDK and bench shape: instructions, user text, a token limit, sampling, stream', () => {
    const request = decodePlainResponsesRequest({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: 'Hi' }],
      max_output_tokens: 256,
      temperature: 0.2,
      stream: true,
    });
    expect(request).toStrictEqual({
      model: 'gpt-4.1',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      sampling: { temperature: 0.2 },
      maxOutputTokens: 256,
      stream: true,
    });
  });

  it('should leave tools, system items and unknown fields to the full decoder', () => {
    expect(decodePlainResponsesRequest({ model: 'm', input: 'Hi', tools: [] })).toBeUndefined();
    expect(decodePlainResponsesRequest({ model: 'm', input: [{ role: 'system', content: 'Be brief.' }] })).toBeUndefined();
    expect(decodePlainResponsesRequest({ model: 'm', input: 'Hi', store: false })).toBeUndefined();
  });
});
