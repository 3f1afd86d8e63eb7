import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChatStreamDecoder } from '../../../src/protocols/chat-completions/index.js';
import { chunkOf, deltaChunk } from '../../helpers/chat-chunks.js';
import { decodeAll, decodeCountingParses } from '../../helpers/stream-decoding.js';

describe('the Chat stream decoder with templates', () => {
  it('decodes a stream as parsing every chunk would, whatever the chunks hold', () => {
    // A relay's decoder (`onChunk`) parses every chunk: it is the reference.
    const reference = () => createChatStreamDecoder({ onChunk() {} });
    const frame = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary' }).map((text) => JSON.stringify(chunkOf(text))) },
      // OpenAI's `obfuscation`, letters and digits that change from chunk to chunk; and the same member holding anything.
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.string({ unit: 'binary' }), fc.stringMatching(/^[A-Za-z0-9]{0,20}$/))
          .map(([text, pad]) => JSON.stringify({ ...chunkOf(text), obfuscation: pad })),
      },
      { weight: 1, arbitrary: fc.string().map((pad) => JSON.stringify({ ...chunkOf('x'), obfuscation: pad })) },
      { weight: 1, arbitrary: fc.string().map((id) => JSON.stringify(chunkOf('y', { id }))) },
      // Anything between the template's two halves, valid JSON or not.
      { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((raw) => JSON.stringify(chunkOf('@')).replace('"@"', `"${raw}"`)) },
      { weight: 1, arbitrary: fc.constant(JSON.stringify({ ...chunkOf(''), usage: { prompt_tokens: 3, completion_tokens: 2 } })) },
      { weight: 1, arbitrary: fc.constant(JSON.stringify(chunkOf('', { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }))) },
      // Reasoning by either name, and tool calls: a call's first fragment names it, the next ones carry arguments.
      { weight: 3, arbitrary: fc.string({ unit: 'binary' }).map((text) => JSON.stringify(deltaChunk({ reasoning_content: text }))) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((text) => JSON.stringify(deltaChunk({ content: null, reasoning: text }))) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(0, 1)
          .map((index) =>
            JSON.stringify(
              deltaChunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: 'f', arguments: '' } }] }),
            ),
          ),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(0, 1), fc.string({ unit: 'binary' }))
          .map(([index, partial]) => JSON.stringify(deltaChunk({ tool_calls: [{ index, function: { arguments: partial } }] }))),
      },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'binary' })
          .map((raw) =>
            JSON.stringify(deltaChunk({ tool_calls: [{ index: 0, function: { arguments: '@' } }] })).replace('"@"', `"${raw}"`),
          ),
      },
      // Two calls in one chunk, and a call with text beside it.
      {
        weight: 1,
        arbitrary: fc.string().map((partial) =>
          JSON.stringify(
            deltaChunk({
              tool_calls: [
                { index: 0, function: { arguments: partial } },
                { index: 1, function: { arguments: 'x' } },
              ],
            }),
          ),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .string()
          .map((partial) => JSON.stringify(deltaChunk({ content: 'y', tool_calls: [{ index: 0, function: { arguments: partial } }] }))),
      },
    );
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 30 }), (frames) => {
        const stream = [
          JSON.stringify(chunkOf('', { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })),
          ...frames,
        ];
        expect(decodeAll(createChatStreamDecoder(), stream)).toEqual(decodeAll(reference(), stream));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['as OpenAI-compatible servers write them', (text: string) => JSON.stringify(chunkOf(text))],
    [
      "with OpenAI's obfuscation padding",
      (text: string, index: number) => JSON.stringify({ ...chunkOf(text), obfuscation: `pad${index}x`.repeat(index % 3) }),
    ],
  ])('reads the texts of a plain stream without parsing them (chunks %s)', (_, chunk) => {
    const texts = Array.from({ length: 20 }, (_, index) => `word ${index} "quoted"\n`);
    const frames = texts.map(chunk);
    const decoded = decodeCountingParses(createChatStreamDecoder(), frames);
    // The first chunk is parsed and cut into a template (checked by parsing it once more); the rest are read.
    expect(decoded.parsed).toBe(2);
    expect(decoded.texts).toEqual(texts);
  });

  it("reads reasoning and a tool call's arguments without parsing their chunks", () => {
    const parts = Array.from({ length: 20 }, (_, index) => `{"step":${index},"note":"a \\"quoted\\" part"`);
    const frames = [
      ...parts.map((part) => JSON.stringify(deltaChunk({ reasoning_content: part }))),
      JSON.stringify(
        deltaChunk({ content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
      ),
      ...parts.map((part, index) =>
        JSON.stringify({ ...deltaChunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }), obfuscation: `p${index}` }),
      ),
    ];
    const decoded = decodeCountingParses(createChatStreamDecoder(), frames);
    // The first reasoning chunk and its check; the call's first fragment; its first arguments and their check.
    expect(decoded.parsed).toBe(5);
    expect(decoded.deltasOf('reasoning-delta')).toEqual(parts);
    expect(decoded.deltasOf('tool-call-delta')).toEqual(parts);
  });
});
