import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalRequest, type CanonicalStreamEvent } from '../../../src/canonical/index.js';
import type { EncodeContext } from '../../../src/protocols/codec.js';
import { decodeResponsesEncryptedContent } from '../../../src/protocols/responses/encrypted-content.js';
import { createResponsesStreamEncoder } from '../../../src/protocols/responses/stream-encoder.js';

type WireEvent = Record<string, unknown> & { type: string; sequence_number: number };

const contextFor = (request: Partial<CanonicalRequest> = {}): EncodeContext => ({
  requestId: 'req_abc',
  created: 1741476542,
  request: { model: 'gpt-test', messages: [], stream: true, ...request },
});

/** Encodes the events and parses the SSE text back, checking each frame's `event:` line matches its data type. */
function encodeAll(events: CanonicalStreamEvent[], context = contextFor()): { text: string; events: WireEvent[] } {
  const encoder = createResponsesStreamEncoder(context);
  const text = events.map((event) => encoder.encode(event)).join('');
  const parsed = text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      const data = JSON.parse((dataLine ?? '').replace(/^data: /, '')) as WireEvent;
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
  return { text, events: parsed };
}

const usage = { inputTokens: 9, outputTokens: 3 };
const start: CanonicalStreamEvent = { type: 'start', id: 'upstream-1', model: 'up' };
const stop: CanonicalStreamEvent = { type: 'finish', finishReason: { unified: 'stop' }, usage };
const textBlock = (id: string, ...deltas: string[]): CanonicalStreamEvent[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): CanonicalStreamEvent => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
const callBlock = (id: string, toolCallId: string, name: string, ...deltas: string[]): CanonicalStreamEvent[] => [
  { type: 'tool-call-start', id, toolCallId, name },
  ...deltas.map((delta): CanonicalStreamEvent => ({ type: 'tool-call-delta', id, delta })),
  { type: 'tool-call-end', id },
];
function terminalOf(events: WireEvent[]): Record<string, unknown> {
  const response = events.at(-1)?.response;
  if (typeof response !== 'object' || response === null) throw new Error('expected a lifecycle event last');
  return response as Record<string, unknown>;
}

describe('createResponsesStreamEncoder', () => {
  it('should stream plain text with the full event chain and sequence numbers from 0', () => {
    const { text, events } = encodeAll([start, ...textBlock('t0', 'Hel', 'lo!'), stop]);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(text).not.toContain('[DONE]');
    expect(events[0]).toMatchObject({ response: { id: 'resp_abc', status: 'in_progress', output: [], usage: null, model: 'gpt-test' } });
    expect(events[2]).toEqual({
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { id: 'msg_abc_0', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    expect(events[4]).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_abc_0',
      output_index: 0,
      content_index: 0,
      delta: 'Hel',
      logprobs: [],
    });
    expect(events[6]).toMatchObject({ text: 'Hello!', logprobs: [] });
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({
      id: 'resp_abc',
      status: 'completed',
      output_text: 'Hello!',
      output: [{ id: 'msg_abc_0', type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Hello!' }] }],
      usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
    });
  });

  it('should stream parallel tool calls, a no-argument call getting {} when done', () => {
    const { events } = encodeAll([
      start,
      ...callBlock('b0', 'call_1', 'get_weather', '{"city":', '"Paris"}'),
      ...callBlock('b1', 'call_2', 'get_time'),
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
    ]);
    const added = events.filter((event) => event.type === 'response.output_item.added');
    expect(added.map((event) => event.item)).toEqual([
      { id: 'fc_abc_0', type: 'function_call', status: 'in_progress', call_id: 'call_1', name: 'get_weather', arguments: '' },
      { id: 'fc_abc_1', type: 'function_call', status: 'in_progress', call_id: 'call_2', name: 'get_time', arguments: '' },
    ]);
    const argumentDeltas = events.filter((event) => event.type === 'response.function_call_arguments.delta');
    expect(argumentDeltas.map((event) => [event.output_index, event.delta])).toEqual([
      [0, '{"city":'],
      [0, '"Paris"}'],
    ]);
    const done = events.filter((event) => event.type === 'response.function_call_arguments.done');
    expect(done.map((event) => [event.item_id, event.name, event.arguments])).toEqual([
      ['fc_abc_0', 'get_weather', '{"city":"Paris"}'],
      ['fc_abc_1', 'get_time', '{}'],
    ]);
    expect(events.some((event) => event.type === 'response.content_part.added')).toBe(false);
    const terminal = terminalOf(events);
    expect(terminal.status).toBe('completed');
    expect(terminal.output).toEqual([
      { id: 'fc_abc_0', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'fc_abc_1', type: 'function_call', status: 'completed', call_id: 'call_2', name: 'get_time', arguments: '{}' },
    ]);
  });

  it('should stream reasoning as a summary and put the signature in encrypted_content', () => {
    const { events } = encodeAll([
      start,
      { type: 'reasoning-start', id: 'r0' },
      { type: 'reasoning-delta', id: 'r0', delta: 'Comparing ' },
      { type: 'reasoning-delta', id: 'r0', delta: 'options…' },
      { type: 'reasoning-end', id: 'r0', signature: 'EqQBsig==' },
      ...textBlock('t1', 'B.'),
      { type: 'finish', finishReason: { unified: 'stop' }, usage: { ...usage, reasoningTokens: 2 } },
    ]);
    expect(events.slice(2, 9).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
    ]);
    expect(events[2]?.item).toEqual({ id: 'rs_abc_0', type: 'reasoning', summary: [] });
    expect(events[6]).toMatchObject({ item_id: 'rs_abc_0', summary_index: 0, text: 'Comparing options…' });
    const reasoningItem = events[8]?.item as Record<string, unknown>;
    expect(reasoningItem).toMatchObject({
      id: 'rs_abc_0',
      summary: [{ type: 'summary_text', text: 'Comparing options…' }],
      status: 'completed',
    });
    expect(decodeResponsesEncryptedContent(String(reasoningItem.encrypted_content))).toEqual({ signature: 'EqQBsig==' });
    const terminal = terminalOf(events);
    expect((terminal.output as unknown[])[0]).toEqual(reasoningItem);
    expect(terminal).toMatchObject({ output_text: 'B.', usage: { output_tokens_details: { reasoning_tokens: 2 } } });
  });

  it('should carry redacted thinking with no summary events', () => {
    const { events } = encodeAll([
      start,
      { type: 'reasoning-start', id: 'r0', redactedData: 'cmVk' },
      { type: 'reasoning-end', id: 'r0' },
      stop,
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const reasoningItem = events[3]?.item as Record<string, unknown>;
    expect(reasoningItem.summary).toEqual([]);
    expect(decodeResponsesEncryptedContent(String(reasoningItem.encrypted_content))).toEqual({ redactedData: 'cmVk' });
  });

  it('should stream calls to a custom tool with custom_tool_call_input events', () => {
    const context = contextFor({
      tools: [
        {
          type: 'provider-defined',
          protocol: 'responses',
          kind: 'custom',
          name: 'apply_patch',
          definition: { type: 'custom', name: 'apply_patch' },
        },
      ],
    });
    const { events } = encodeAll([start, ...callBlock('b0', 'call_p', 'apply_patch', '*** Begin', ' Patch'), stop], context);
    expect(events.slice(2, -1).map((event) => event.type)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
    ]);
    expect(events.at(-2)?.item).toEqual({
      id: 'ctc_abc_0',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_p',
      name: 'apply_patch',
      input: '*** Begin Patch',
    });
  });

  it('should end a truncated answer with response.incomplete', () => {
    const { events } = encodeAll([start, ...textBlock('t0', 'Once upon'), { type: 'finish', finishReason: { unified: 'length' }, usage }]);
    expect(events.at(-1)?.type).toBe('response.incomplete');
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'Once upon' });
    expect((terminal.output as { status: string }[])[0]?.status).toBe('incomplete');
  });

  it('should close a block left open when the stream finishes', () => {
    const { events } = encodeAll([start, { type: 'text-start', id: 't0' }, { type: 'text-delta', id: 't0', delta: 'cut' }, stop]);
    expect(events.slice(-4).map((event) => event.type)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('should turn an error into response.failed with the output so far, then write nothing more', () => {
    const context = contextFor();
    const encoder = createResponsesStreamEncoder(context);
    const error = new GatewayError({ kind: 'upstream', code: 'UPSTREAM_ERROR', message: 'The provider failed.' });
    const before = [start, { type: 'text-start', id: 't0' }, { type: 'text-delta', id: 't0', delta: 'Partial' }] as CanonicalStreamEvent[];
    before.forEach((event) => encoder.encode(event));
    const failed = encoder.encode({ type: 'error', error });
    expect(failed.startsWith('event: response.failed\n')).toBe(true);
    const data = JSON.parse(failed.split('\n')[1]?.replace(/^data: /, '') ?? '') as WireEvent & { response: Record<string, unknown> };
    expect(data.sequence_number).toBe(5);
    expect(data.response).toMatchObject({
      id: 'resp_abc',
      status: 'failed',
      error: { code: 'server_error', message: 'The provider failed.' },
      output: [{ id: 'msg_abc_0', type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'Partial' }] }],
    });
    expect(encoder.encode(stop)).toBe('');
    expect(encoder.encode({ type: 'text-delta', id: 't0', delta: 'x' })).toBe('');
  });

  it('should map a rate-limit error to rate_limit_exceeded', () => {
    const error = new GatewayError({ kind: 'rate_limit', code: 'RATE_LIMITED', message: 'Slow down.' });
    const { events } = encodeAll([start, { type: 'error', error }]);
    expect(terminalOf(events)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
  });

  it('should keep a provider resp_ id and emit the lifecycle events even without a start event', () => {
    expect(terminalOf(encodeAll([{ ...start, id: 'resp_up' }, ...textBlock('t', 'x'), stop]).events).id).toBe('resp_up');
    const { events } = encodeAll([...textBlock('t', 'x'), stop]);
    expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
  });

  it('should use the same item ids in the terminal response as in the streamed events', () => {
    const { events } = encodeAll([
      start,
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'reasoning-end', id: 'r' },
      ...textBlock('t', 'Calling.'),
      ...callBlock('c', 'call_9', 'f', '{}'),
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
    ]);
    const streamedIds = events
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => (event.item as { id: string }).id);
    expect(streamedIds).toEqual(['rs_abc_0', 'msg_abc_1', 'fc_abc_2']);
    expect((terminalOf(events).output as { id: string }[]).map((entry) => entry.id)).toEqual(streamedIds);
  });

  it("should keep an OpenAI upstream's own item ids (once each), as the non-streamed answer does", () => {
    const own = (id: string) => ({ responses: { id } });
    const { events } = encodeAll([
      start,
      { type: 'reasoning-start', id: 'r', extensions: own('rs_up') },
      { type: 'reasoning-end', id: 'r', extensions: { responses: { encrypted_content: 'enc' } } },
      { type: 'text-start', id: 't', extensions: own('msg_up') },
      { type: 'text-delta', id: 't', delta: 'Calling.' },
      { type: 'text-end', id: 't' },
      // A second part of the same upstream message cannot reuse its id.
      { type: 'text-start', id: 't2', extensions: own('msg_up') },
      { type: 'text-delta', id: 't2', delta: 'More.' },
      { type: 'text-end', id: 't2' },
      { type: 'tool-call-start', id: 'c', toolCallId: 'call_9', name: 'f', extensions: own('fc_up') },
      { type: 'tool-call-end', id: 'c' },
      { type: 'finish', finishReason: { unified: 'tool-calls' }, usage },
    ]);
    const streamedIds = events
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => (event.item as { id: string }).id);
    expect(streamedIds).toEqual(['rs_up', 'msg_up', 'msg_abc_2', 'fc_up']);
    expect((terminalOf(events).output as { id: string }[]).map((entry) => entry.id)).toEqual(streamedIds);
  });
});
