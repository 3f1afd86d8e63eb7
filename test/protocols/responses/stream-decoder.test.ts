import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createResponsesStreamDecoder } from '../../../src/protocols/responses/stream-decoder.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';
import { checkStreamEvents } from '../../../src/testing/check-stream-events.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

function decodeAll(messages: readonly SseMessage[]): CanonicalStreamEvent[] {
  const decoder = createResponsesStreamDecoder({ model: 'fallback-model' });
  return [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
}

const frame = (data: Record<string, unknown>): SseMessage => ({ event: String(data.type), data: JSON.stringify(data) });
const created = frame({ type: 'response.created', response: { id: 'resp_9', model: 'gpt-5', status: 'in_progress', output: [] } });
const completed = (output: unknown[] = []) =>
  frame({
    type: 'response.completed',
    response: { id: 'resp_9', status: 'completed', output, usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } },
  });

describe('createResponsesStreamDecoder', () => {
  describe('text', () => {
    it('should decode a text stream into one text block, a stop finish and usage', () => {
      expect(decodeAll(sseMessagesFixture('responses', 'upstream-text'))).toEqual([
        { type: 'start', id: 'resp_1', model: 'gpt-5-2025-08-07' },
        { type: 'text-start', id: 'b0', extensions: { responses: { id: 'msg_1' } } },
        { type: 'text-delta', id: 'b0', delta: 'Bonjour — ' },
        { type: 'text-delta', id: 'b0', delta: 'café ☀️' },
        { type: 'text-delta', id: 'b0', delta: '!' },
        { type: 'text-end', id: 'b0' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'completed' },
          usage: { inputTokens: 9, outputTokens: 3, cachedInputTokens: 0, reasoningTokens: 0, totalTokens: 12 },
        },
      ]);
    });

    it('should emit each event as soon as its message arrives', () => {
      const decoder = createResponsesStreamDecoder();
      const messages = sseMessagesFixture('responses', 'upstream-text');
      const perMessage = messages.map((message) => decoder.decode(message).map((event) => event.type));
      expect(perMessage[0]).toEqual(['start']);
      expect(perMessage[3]).toEqual(['text-start']);
      expect(perMessage[4]).toEqual(['text-delta']);
    });

    it('should report a cut-off stream as length', () => {
      const events = decodeAll(sseMessagesFixture('responses', 'upstream-incomplete'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.at(-1)).toMatchObject({
        type: 'finish',
        finishReason: { unified: 'length', raw: 'max_output_tokens' },
        usage: { outputTokens: 16 },
      });
    });
  });

  describe('tool calls', () => {
    it('should pass argument fragments through as they arrive and finish with tool-calls', () => {
      expect(decodeAll(sseMessagesFixture('responses', 'upstream-tool-call')).slice(1)).toEqual([
        // The `fc_` item id rides along so the client replays the call under OpenAI's id.
        { type: 'tool-call-start', id: 'b0', toolCallId: 'call_1', name: 'get_weather', extensions: { responses: { id: 'fc_1' } } },
        { type: 'tool-call-delta', id: 'b0', delta: '{"city":' },
        { type: 'tool-call-delta', id: 'b0', delta: '"Paris"}' },
        { type: 'tool-call-end', id: 'b0' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'completed' }, usage: expect.objectContaining({ inputTokens: 9 }) },
      ]);
    });

    it('should take the arguments from the done events when no delta came', () => {
      const item = { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'f', arguments: '' };
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item }),
        frame({ type: 'response.function_call_arguments.done', output_index: 0, arguments: '{"a":1}' }),
        frame({ type: 'response.output_item.done', output_index: 0, item: { ...item, arguments: '{"a":1}' } }),
        completed([{ ...item, arguments: '{"a":1}' }]),
      ]);
      expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([{ type: 'tool-call-delta', id: 'b0', delta: '{"a":1}' }]);
    });

    it('should decode parallel calls as separate blocks', () => {
      const call = (index: number) => ({ type: 'function_call', id: `fc_${index}`, call_id: `call_${index}`, name: 'f', arguments: '' });
      const events = decodeAll([
        created,
        ...[0, 1].flatMap((index) => [
          frame({ type: 'response.output_item.added', output_index: index, item: call(index) }),
          frame({ type: 'response.function_call_arguments.delta', output_index: index, delta: `{"n":${index}}` }),
          frame({ type: 'response.output_item.done', output_index: index, item: { ...call(index), arguments: `{"n":${index}}` } }),
        ]),
        completed(),
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(
        events.filter((event) => event.type === 'tool-call-start').map((event) => event.type === 'tool-call-start' && event.toolCallId),
      ).toEqual(['call_0', 'call_1']);
    });
  });

  describe('refusals', () => {
    const message = (content: unknown[]) => ({ type: 'message', id: 'msg_r', role: 'assistant', status: 'completed', content });

    it('should decode a streamed refusal part into a refusal block carrying the item id', () => {
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item: { ...message([]), status: 'in_progress' } }),
        frame({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } }),
        frame({ type: 'response.refusal.delta', output_index: 0, content_index: 0, delta: "I'm sorry, " }),
        frame({ type: 'response.refusal.delta', output_index: 0, content_index: 0, delta: 'no.' }),
        frame({ type: 'response.refusal.done', output_index: 0, content_index: 0, refusal: "I'm sorry, no." }),
        frame({
          type: 'response.content_part.done',
          output_index: 0,
          content_index: 0,
          part: { type: 'refusal', refusal: "I'm sorry, no." },
        }),
        frame({ type: 'response.output_item.done', output_index: 0, item: message([{ type: 'refusal', refusal: "I'm sorry, no." }]) }),
        completed([message([{ type: 'refusal', refusal: "I'm sorry, no." }])]),
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, -1)).toEqual([
        { type: 'refusal-start', id: 'b0', extensions: { responses: { id: 'msg_r' } } },
        { type: 'refusal-delta', id: 'b0', delta: "I'm sorry, " },
        { type: 'refusal-delta', id: 'b0', delta: 'no.' },
        { type: 'refusal-end', id: 'b0' },
      ]);
    });

    it('should take the refusal from its done event when no delta came, after the text part before it', () => {
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item: { ...message([]), status: 'in_progress' } }),
        frame({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta: 'Partly: ' }),
        frame({ type: 'response.output_text.done', output_index: 0, content_index: 0, text: 'Partly: ' }),
        frame({ type: 'response.refusal.done', output_index: 0, content_index: 1, refusal: 'not the rest.' }),
        completed(),
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, -1).map((event) => [event.type, 'delta' in event ? event.delta : undefined])).toEqual([
        ['text-start', undefined],
        ['text-delta', 'Partly: '],
        ['text-end', undefined],
        ['refusal-start', undefined],
        ['refusal-delta', 'not the rest.'],
        ['refusal-end', undefined],
      ]);
    });

    it('should replay a refusal that only arrived whole as a refusal block', () => {
      const item = message([{ type: 'refusal', refusal: 'No.' }]);
      const events = decodeAll([created, frame({ type: 'response.output_item.done', output_index: 0, item }), completed([item])]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, -1)).toEqual([
        { type: 'refusal-start', id: 'b0' },
        { type: 'refusal-delta', id: 'b0', delta: 'No.' },
        { type: 'refusal-end', id: 'b0' },
      ]);
    });
  });

  describe('reasoning', () => {
    it('should decode summary parts into one reasoning block before the text', () => {
      const events = decodeAll(sseMessagesFixture('responses', 'upstream-reasoning'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, 7)).toEqual([
        { type: 'reasoning-start', id: 'b0', extensions: { responses: { id: 'rs_1' } } },
        { type: 'reasoning-delta', id: 'b0', delta: 'Comparing options…' },
        { type: 'reasoning-delta', id: 'b0', delta: '\n\n' },
        { type: 'reasoning-delta', id: 'b0', delta: 'Paris is usually mild.' },
        // The encrypted content arrives with the item's end, so the client can replay it.
        { type: 'reasoning-end', id: 'b0', extensions: { responses: { id: 'rs_1', encrypted_content: 'gAAAAABoStreamedBlob==' } } },
        { type: 'text-start', id: 'b1', extensions: { responses: { id: 'msg_1' } } },
      ]);
      expect(events.at(-1)).toMatchObject({
        type: 'finish',
        usage: { inputTokens: 120, cachedInputTokens: 100, outputTokens: 80, reasoningTokens: 60, totalTokens: 200 },
      });
    });

    it('should decode raw reasoning text of open-weight models', () => {
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
        frame({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'reasoning_text', text: '' } }),
        frame({ type: 'response.reasoning_text.delta', output_index: 0, content_index: 0, delta: 'hmm' }),
        frame({ type: 'response.reasoning_text.done', output_index: 0, content_index: 0, text: 'hmm' }),
        frame({ type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
        completed(),
      ]);
      expect(events.slice(1, 4)).toEqual([
        { type: 'reasoning-start', id: 'b0', extensions: { responses: { id: 'rs_1' } } },
        { type: 'reasoning-delta', id: 'b0', delta: 'hmm' },
        { type: 'reasoning-end', id: 'b0', extensions: { responses: { id: 'rs_1' } } },
      ]);
    });

    it('should keep a reasoning item without summary as an empty block carrying its encrypted content', () => {
      const item = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAA' };
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item }),
        frame({ type: 'response.output_item.done', output_index: 0, item }),
        completed([item]),
      ]);
      expect(events.map((event) => event.type)).toEqual(['start', 'reasoning-start', 'reasoning-end', 'finish']);
      expect(events[2]).toMatchObject({ extensions: { responses: { encrypted_content: 'gAAA' } } });
    });

    it('should emit no block for a reasoning item with neither summary nor encrypted content', () => {
      const item = { type: 'reasoning', id: 'rs_3', summary: [] };
      const events = decodeAll([
        created,
        frame({ type: 'response.output_item.added', output_index: 0, item }),
        frame({ type: 'response.output_item.done', output_index: 0, item }),
        completed([item]),
      ]);
      expect(events.map((event) => event.type)).toEqual(['start', 'finish']);
    });
  });

  describe('failures', () => {
    it('should turn response.failed after output into an error event', () => {
      const events = decodeAll(sseMessagesFixture('responses', 'upstream-failed'));
      expect(checkStreamEvents(events)).toEqual([]);
      const last = events.at(-1);
      expect(last?.type).toBe('error');
      expect(last?.type === 'error' && last.error).toMatchObject({ kind: 'upstream', message: 'The model crashed mid-answer.' });
    });

    it('should turn an error event into a retryable rate limit error', () => {
      const events = decodeAll(sseMessagesFixture('responses', 'upstream-error-event'));
      expect(events.map((event) => event.type)).toEqual(['start', 'error']);
      expect(events[1]?.type === 'error' && events[1].error).toMatchObject({ status: 429, kind: 'rate_limit', retryable: true });
    });

    it('should report a stream that ends before its terminal event', () => {
      const events = decodeAll(sseMessagesFixture('responses', 'upstream-text').slice(0, 5));
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY' } });
    });

    it('should ignore anything after the terminal event and frames that are not JSON', () => {
      const decoder = createResponsesStreamDecoder();
      const events = [created, { data: '[DONE]' }, completed(), frame({ type: 'error', message: 'late' })].flatMap((message) =>
        decoder.decode(message),
      );
      expect(events.map((event) => event.type)).toEqual(['start', 'finish']);
      expect(decoder.end()).toEqual([]);
    });
  });

  describe('lenient decoding', () => {
    it('should replay items that only arrived whole, and read the type from the event name when data has none', () => {
      const message = { type: 'message', id: 'msg_7', role: 'assistant', content: [{ type: 'output_text', text: 'whole' }] };
      const call = { type: 'function_call', id: 'fc_7', call_id: 'call_7', name: 'f', arguments: '{}' };
      const events = decodeAll([
        { event: 'response.created', data: JSON.stringify({ response: { id: 'resp_7', model: 'm' } }) },
        frame({ type: 'response.output_item.done', output_index: 0, item: message }),
        frame({ type: 'keepalive' }),
        completed([message, call]),
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.map((event) => event.type)).toEqual([
        'start',
        'text-start',
        'text-delta',
        'text-end',
        'tool-call-start',
        'tool-call-delta',
        'tool-call-end',
        'finish',
      ]);
      expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls' } });
    });

    it('should start with the fallback model when the upstream names none', () => {
      expect(decodeAll([frame({ type: 'response.completed', response: { status: 'completed' } })])[0]).toEqual({
        type: 'start',
        id: '',
        model: 'fallback-model',
      });
    });
  });
});
