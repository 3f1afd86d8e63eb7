import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../src/canonical/index.js';
import { createChatStreamDecoder } from '../../src/protocols/chat-completions/index.js';
import { createMessagesStreamDecoder } from '../../src/protocols/messages/index.js';
import { createResponsesStreamDecoder } from '../../src/protocols/responses/index.js';
import { cutTextTemplate, readTemplateText } from '../../src/protocols/text-template.js';

interface Chunk {
  id: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  [member: string]: unknown;
}

const chunkOf = (content: string, changes: Partial<Chunk> = {}): Chunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1764400000,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
  ...changes,
});

const textOfChunk = (chunk: unknown) => (chunk as Chunk).choices?.[0]?.delta?.content;

/** The template of a chunk written as OpenAI writes it. */
function templateOf(chunk: Chunk) {
  return cutTextTemplate(JSON.stringify(chunk), 'content', chunk.choices[0]!.delta.content as string, textOfChunk);
}

describe('text templates', () => {
  it('reads the text of a chunk that differs only in its text, escapes decoded', () => {
    const template = templateOf(chunkOf('The '))!;
    expect(template).toBeDefined();
    for (const text of ['change ', '', 'a "quoted"\nline\t\\', 'é😀\u2028', '</script>\u0000']) {
      expect(readTemplateText(template, JSON.stringify(chunkOf(text)))).toBe(text);
    }
    // The same text written with other escapes.
    expect(readTemplateText(template, JSON.stringify(chunkOf('x')).replace('"x"', '"\\u00e9\\/"'))).toBe('é/');
  });

  it('reads nothing from a chunk that differs elsewhere or whose middle is not one string', () => {
    const template = templateOf(chunkOf('The '))!;
    const written = (text: string) => JSON.stringify(chunkOf('@')).replace('"@"', `"${text}"`);
    expect(readTemplateText(template, JSON.stringify(chunkOf('x', { id: 'chatcmpl-2' })))).toBeUndefined();
    expect(readTemplateText(template, JSON.stringify({ ...chunkOf('x'), usage: { total_tokens: 3 } }))).toBeUndefined();
    expect(
      readTemplateText(template, JSON.stringify(chunkOf('x', { choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] }))),
    ).toBeUndefined();
    // Two strings where one was: `"a","content":"b"`.
    expect(readTemplateText(template, written('a","content":"b'))).toBeUndefined();
    expect(readTemplateText(template, written('raw\nnewline'))).toBeUndefined();
    // A last backslash escapes the closing quote; a bad escape is not JSON.
    expect(readTemplateText(template, written('ends with \\'))).toBeUndefined();
    expect(readTemplateText(template, written('bad \\x escape'))).toBeUndefined();
  });

  it('is not cut where the last "content" member is not the delta text', () => {
    // A later member named content: the template would be cut around the wrong string.
    const later = { ...chunkOf('The '), extra: { content: 'other' } };
    expect(templateOf(later)).toBeUndefined();
    // The delta names content twice: the parser keeps the last, which the text is cut around.
    const twice = JSON.stringify(chunkOf('first')).replace('{"content":"first"}', '{"content":"first","content":"second"}');
    const template = cutTextTemplate(twice, 'content', 'second', textOfChunk)!;
    expect(readTemplateText(template, twice.replace('"second"', '"third"'))).toBe('third');
  });
});

/** A stream's events as the decoder gives them, errors as their codes. */
function decodeAll(decoder: ReturnType<typeof createChatStreamDecoder>, frames: readonly string[]): unknown[] {
  const events: CanonicalStreamEvent[] = [];
  for (const data of frames) events.push(...decoder.decode({ data }));
  events.push(...decoder.end());
  return events.map((event) => (event.type === 'error' ? { type: 'error', code: event.error.code } : event));
}

/**
 * What a stream of `frames` decodes to, with how many whole events were parsed on the way (an
 * escaped text alone goes through the parser too, and is not counted) and the texts it gave.
 */
function decodeCountingParses(decoder: ReturnType<typeof createChatStreamDecoder>, frames: readonly string[]) {
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (text.startsWith('{')) parsed += 1;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const events = decodeAll(decoder, frames);
    const texts = events
      .filter((event) => (event as CanonicalStreamEvent).type === 'text-delta')
      .map((event) => (event as { delta: string }).delta);
    return { parsed, texts };
  } finally {
    JSON.parse = parse;
  }
}

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
});

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
    const parse = JSON.parse;
    let parsed = 0;
    JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
      if (text.startsWith('{')) parsed += 1;
      return parse(text, reviver);
    }) as typeof JSON.parse;
    let events: CanonicalStreamEvent[];
    try {
      const decoder = createMessagesStreamDecoder();
      events = frames.flatMap((data) => decoder.decode({ data }));
    } finally {
      JSON.parse = parse;
    }
    // Per block: its start, its first delta and that delta's template check; the stop between; the message's start.
    expect(parsed).toBe(8);
    expect(events.filter((event) => event.type === 'reasoning-delta').map((event) => (event as { delta: string }).delta)).toEqual(parts);
    expect(events.filter((event) => event.type === 'tool-call-delta').map((event) => (event as { delta: string }).delta)).toEqual(parts);
  });
});

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
});
