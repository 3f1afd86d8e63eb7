import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMessagesStreamDecoder } from '../../../src/protocols/messages/index.js';
import { decodeAll, decodeCountingParses } from '../../helpers/stream-decoding.js';

const messagesEvent = (type: string, fields: Record<string, unknown>) => JSON.stringify({ type, ...fields });
const textDelta = (index: number, text: string) => messagesEvent('content_block_delta', { index, delta: { type: 'text_delta', text } });
const thinkingDelta = (index: number, thinking: string) =>
  messagesEvent('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } });
const inputDelta = (index: number, partial: string) =>
  messagesEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });

describe('the Anthropic stream decoder with templates', () => {
  const opening = [
    messagesEvent('message_start', {
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        content: [],
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    }),
    messagesEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];

  it('decodes a stream as parsing every event would, whatever the events hold', () => {
    // A relay's decoder (`onEvent`) parses every event: it is the reference.
    const reference = () => createMessagesStreamDecoder({ onEvent() {} });
    const frame = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary' }).map((text) => textDelta(0, text)) },
      { weight: 1, arbitrary: fc.string().map((text) => textDelta(1, text)) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((raw) => textDelta(0, '@').replace('"@"', `"${raw}"`)) },
      { weight: 1, arbitrary: fc.constant(messagesEvent('content_block_stop', { index: 0 })) },
      { weight: 1, arbitrary: fc.constant(messagesEvent('content_block_start', { index: 1, content_block: { type: 'text', text: '' } })) },
      {
        weight: 1,
        arbitrary: fc.constant(messagesEvent('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'x' } })),
      },
      {
        weight: 1,
        arbitrary: fc.constant(messagesEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } })),
      },
      // A thinking block and a tool call: their deltas are read from templates too, each of its own kind.
      {
        weight: 1,
        arbitrary: fc.constant(messagesEvent('content_block_start', { index: 2, content_block: { type: 'thinking', thinking: '' } })),
      },
      {
        weight: 1,
        arbitrary: fc.constant(
          messagesEvent('content_block_start', { index: 3, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
        ),
      },
      { weight: 3, arbitrary: fc.string({ unit: 'binary' }).map((text) => thinkingDelta(2, text)) },
      { weight: 3, arbitrary: fc.string({ unit: 'binary' }).map((partial) => inputDelta(3, partial)) },
      // A kind's text in another's block, the middle anything, and a delta with a member more than its text.
      { weight: 1, arbitrary: fc.string().map((partial) => inputDelta(2, partial)) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((raw) => inputDelta(3, '@').replace('"@"', `"${raw}"`)) },
      {
        weight: 1,
        arbitrary: fc
          .string()
          .map((signature) =>
            messagesEvent('content_block_delta', { index: 2, delta: { type: 'thinking_delta', thinking: 'y', signature } }),
          ),
      },
      { weight: 1, arbitrary: fc.constant(messagesEvent('content_block_stop', { index: 3 })) },
      // An Anthropic-only block is passed on with its deltas whole, a member more included.
      {
        weight: 1,
        arbitrary: fc.constant(
          messagesEvent('content_block_start', {
            index: 4,
            content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
          }),
        ),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.string(), fc.constantFrom('x', ''))
          .map(([partial, extra]) =>
            messagesEvent('content_block_delta', { index: 4, delta: { type: 'input_json_delta', partial_json: partial, extra } }),
          ),
      },
    );
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 30 }), (frames) => {
        const stream = [...opening, ...frames, messagesEvent('message_stop', {})];
        expect(decodeAll(createMessagesStreamDecoder(), stream)).toEqual(decodeAll(reference(), stream));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the texts of a plain stream without parsing them', () => {
    const texts = Array.from({ length: 20 }, (_, index) => `word ${index} "quoted"\n`);
    const frames = [...opening, ...texts.map((text) => textDelta(0, text))];
    const decoded = decodeCountingParses(createMessagesStreamDecoder(), frames);
    // The two opening events and the first delta are parsed, the delta's template checked by parsing it once more.
    expect(decoded.parsed).toBe(4);
    expect(decoded.texts).toEqual(texts);
  });

  it("reads a tool call's input and a thinking block's text without parsing their deltas", () => {
    const parts = Array.from({ length: 20 }, (_, index) => `{"step":${index},"note":"a \\"quoted\\" part"`);
    const frames = [
      opening[0]!,
      messagesEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
      ...parts.map((part) => thinkingDelta(0, part)),
      messagesEvent('content_block_stop', { index: 0 }),
      messagesEvent('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
      ...parts.map((part) => inputDelta(1, part)),
    ];
    const decoded = decodeCountingParses(createMessagesStreamDecoder(), frames);
    // Per block: its start, its first delta and that delta's template check; the stop between; the message's start.
    expect(decoded.parsed).toBe(8);
    expect(decoded.deltasOf('reasoning-delta')).toEqual(parts);
    expect(decoded.deltasOf('tool-call-delta')).toEqual(parts);
  });
});
