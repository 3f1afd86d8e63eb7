import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createResponsesStreamEncoder } from '../../../src/protocols/responses/stream-encoder.js';

type WireEvent = Record<string, unknown> & { type: string; sequence_number: number };

function encodeAll(events: CanonicalStreamEvent[]): WireEvent[] {
  const encoder = createResponsesStreamEncoder({
    requestId: 'req_abc',
    created: 1741476542,
    request: { model: 'gpt-test', messages: [], stream: true },
  });
  return events
    .map((event) => encoder.encode(event))
    .join('')
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => JSON.parse(frame.split('\n')[1]?.replace(/^data: /, '') ?? '') as WireEvent);
}

const start: CanonicalStreamEvent = { type: 'start', id: 'upstream-1', model: 'up' };
const refusal = (id: string, ...deltas: string[]): CanonicalStreamEvent[] => [
  { type: 'refusal-start', id, extensions: { responses: { id: 'msg_up' } } },
  ...deltas.map((delta): CanonicalStreamEvent => ({ type: 'refusal-delta', id, delta })),
  { type: 'refusal-end', id },
];
const part = (text: string) => ({ type: 'refusal', refusal: text });
const fields = { item_id: 'msg_up', output_index: 0, content_index: 0 };

describe('createResponsesStreamEncoder: refusals', () => {
  it('should stream a refusal as a message whose content part is a refusal, fed by response.refusal.delta', () => {
    const events = encodeAll([
      start,
      ...refusal('r', "I'm sorry, ", 'no.'),
      { type: 'finish', finishReason: { unified: 'stop' }, usage: {} },
    ]);
    const strip = ({ sequence_number: _sequence, ...rest }: WireEvent) => rest;
    const item = (status: string, content: unknown[]) => ({ id: 'msg_up', type: 'message', status, role: 'assistant', content });
    expect(events.slice(2, -1).map(strip)).toEqual([
      { type: 'response.output_item.added', output_index: 0, item: item('in_progress', []) },
      { type: 'response.content_part.added', ...fields, part: part('') },
      { type: 'response.refusal.delta', ...fields, delta: "I'm sorry, " },
      { type: 'response.refusal.delta', ...fields, delta: 'no.' },
      { type: 'response.refusal.done', ...fields, refusal: "I'm sorry, no." },
      { type: 'response.content_part.done', ...fields, part: part("I'm sorry, no.") },
      { type: 'response.output_item.done', output_index: 0, item: item('completed', [part("I'm sorry, no.")]) },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { status: 'completed', output: [item('completed', [part("I'm sorry, no.")])] },
    });
    expect(events.filter((event) => event.type.includes('output_text'))).toEqual([]);
  });

  it('should give a refusal after text its own message item', () => {
    const events = encodeAll([
      start,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Partly.' },
      { type: 'text-end', id: 't' },
      ...refusal('r', 'Not the rest.'),
      { type: 'finish', finishReason: { unified: 'stop' }, usage: {} },
    ]);
    const output = (events.at(-1)?.response as { output: unknown[] }).output;
    expect(output).toEqual([
      expect.objectContaining({ id: 'msg_abc_0', content: [expect.objectContaining({ type: 'output_text', text: 'Partly.' })] }),
      expect.objectContaining({ id: 'msg_up', content: [part('Not the rest.')] }),
    ]);
    expect(events.find((event) => event.type === 'response.refusal.delta')).toMatchObject({ item_id: 'msg_up', output_index: 1 });
  });

  it('should keep a refusal cut short by an error as an incomplete item of the failed response', () => {
    const error = new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', message: 'Gone.' });
    const events = encodeAll([
      start,
      { type: 'refusal-start', id: 'r' },
      { type: 'refusal-delta', id: 'r', delta: 'I can' },
      { type: 'error', error },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { output: [{ id: 'msg_abc_0', type: 'message', status: 'incomplete', content: [part('I can')] }] },
    });
  });
});
