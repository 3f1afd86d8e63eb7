import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createResponsesStreamDecoder } from '../../../src/protocols/responses/index.js';
import { cutTextTemplate, readTemplateText } from '../../../src/protocols/text-template.js';
import { decodeAll, decodeCountingParses } from '../../helpers/stream-decoding.js';

describe('the Responses stream decoder with templates', () => {
  const event = (type: string, sequence: number, fields: Record<string, unknown>) =>
    JSON.stringify({ type, sequence_number: sequence, ...fields });
  const textDeltaAt = (sequence: number, text: string, pad?: string) =>
    event('response.output_text.delta', sequence, {
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: text,
      logprobs: [],
      ...(pad === undefined ? {} : { obfuscation: pad }),
    });
  const opening = [
    event('response.created', 0, {
      response: { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt', output: [] },
    }),
    event('response.output_item.added', 1, {
      output_index: 0,
      item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    }),
    event('response.content_part.added', 2, {
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
  ];
  const completed = (sequence: number) =>
    event('response.completed', sequence, {
      response: {
        id: 'resp_1',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'gpt',
        output: [],
        usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
      },
    });

  it('decodes a stream as parsing every event would, whatever the events hold', () => {
    // A relay's decoder (`onEvent`) parses every event: it is the reference.
    const reference = () => createResponsesStreamDecoder({ onEvent() {} });
    const frame = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.nat(), fc.string({ unit: 'binary' }), fc.option(fc.stringMatching(/^[A-Za-z0-9]{0,16}$/), { nil: undefined }))
          .map(([sequence, text, pad]) => textDeltaAt(sequence, text, pad)),
      },
      // Anything between the template's parts, valid JSON or not.
      { weight: 2, arbitrary: fc.string({ unit: 'binary' }).map((raw) => textDeltaAt(7, '@').replace('"@"', `"${raw}"`)) },
      { weight: 1, arbitrary: fc.string().map((raw) => textDeltaAt(7, 'x').replace('"sequence_number":7', `"sequence_number":${raw}`)) },
      {
        weight: 1,
        arbitrary: fc
          .string()
          .map((text) => event('response.output_text.delta', 9, { item_id: 'msg_1', output_index: 1, content_index: 0, delta: text })),
      },
      {
        weight: 1,
        arbitrary: fc
          .string()
          .map((text) => event('response.refusal.delta', 9, { item_id: 'msg_1', output_index: 0, content_index: 0, delta: text })),
      },
      // A part named by `summary_index` rather than `content_index`.
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.nat(), fc.string())
          .map(([sequence, text]) =>
            event('response.output_text.delta', sequence, { item_id: 'msg_1', output_index: 0, summary_index: 1, delta: text }),
          ),
      },
      // A reasoning item and a function call, each with its deltas; and a delta of one kind in another's item.
      {
        weight: 1,
        arbitrary: fc.constant(
          event('response.output_item.added', 20, { output_index: 1, item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constant(
          event('response.output_item.added', 21, {
            output_index: 2,
            item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '', status: 'in_progress' },
          }),
        ),
      },
      {
        weight: 3,
        arbitrary: fc.tuple(fc.nat(), fc.string({ unit: 'binary' }), fc.constantFrom(0, 1)).map(([sequence, text, part]) =>
          event('response.reasoning_summary_text.delta', sequence, {
            item_id: 'rs_1',
            output_index: 1,
            summary_index: part,
            delta: text,
          }),
        ),
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.nat(), fc.string({ unit: 'binary' }), fc.option(fc.stringMatching(/^[A-Za-z0-9]{0,16}$/), { nil: undefined }))
          .map(([sequence, partial, pad]) =>
            event('response.function_call_arguments.delta', sequence, {
              item_id: 'fc_1',
              output_index: 2,
              delta: partial,
              ...(pad === undefined ? {} : { obfuscation: pad }),
            }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .string()
          .map((partial) => event('response.function_call_arguments.delta', 30, { item_id: 'fc_1', output_index: 1, delta: partial })),
      },
      {
        weight: 1,
        arbitrary: fc.constant(
          event('response.output_item.done', 31, {
            output_index: 2,
            item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' },
          }),
        ),
      },
    );
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 30 }), (frames) => {
        const stream = [...opening, ...frames, completed(99)];
        expect(decodeAll(createResponsesStreamDecoder(), stream)).toEqual(decodeAll(reference(), stream));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a counter only as JSON writes one', () => {
    const textOf = (parsed: unknown) => (parsed as { delta?: unknown }).delta;
    const template = cutTextTemplate(textDeltaAt(5, 'a', 'x1'), 'delta', 'a', textOf, { counter: 'sequence_number', tail: 'obfuscation' })!;
    expect(template.between).toBeDefined();
    expect(readTemplateText(template, textDeltaAt(61, 'b', 'y2'))).toBe('b');
    for (const counter of ['06', '-6', '6.5', '6e1', '', ' 6']) {
      expect(
        readTemplateText(template, textDeltaAt(6, 'b', 'y2').replace('"sequence_number":6', `"sequence_number":${counter}`)),
      ).toBeUndefined();
    }
  });

  it('reads the texts of a plain stream without parsing them, whatever their counters and padding', () => {
    const texts = Array.from({ length: 20 }, (_, index) => `word ${index} "quoted"\n`);
    const frames = [...opening, ...texts.map((text, index) => textDeltaAt(3 + index * 7, text, `p${index}`.repeat(index % 4)))];
    const decoded = decodeCountingParses(createResponsesStreamDecoder(), frames);
    // The three opening events and the first delta are parsed, the delta's template checked by parsing it once more.
    expect(decoded.parsed).toBe(5);
    expect(decoded.texts).toEqual(texts);
  });

  it("reads a function call's arguments and reasoning without parsing their deltas", () => {
    const parts = Array.from({ length: 20 }, (_, index) => `{"step":${index},"note":"a \\"quoted\\" part"`);
    const frames = [
      opening[0]!,
      event('response.output_item.added', 1, { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }),
      ...parts.map((part, index) =>
        event('response.reasoning_summary_text.delta', 2 + index, { item_id: 'rs_1', output_index: 0, summary_index: 0, delta: part }),
      ),
      event('response.output_item.added', 30, {
        output_index: 1,
        item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '', status: 'in_progress' },
      }),
      ...parts.map((part, index) =>
        event('response.function_call_arguments.delta', 31 + index, {
          item_id: 'fc_1',
          output_index: 1,
          delta: part,
          obfuscation: `p${index}`,
        }),
      ),
    ];
    const decoded = decodeCountingParses(createResponsesStreamDecoder(), frames);
    // The response's start; per item, its start, its first delta and that delta's template check.
    expect(decoded.parsed).toBe(7);
    expect(decoded.deltasOf('reasoning-delta')).toEqual(parts);
    expect(decoded.deltasOf('tool-call-delta')).toEqual(parts);
  });
});
