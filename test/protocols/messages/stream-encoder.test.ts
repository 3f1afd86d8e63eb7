import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalStreamEvent, upstreamErrorCode } from '../../../src/canonical/index.js';
import { createMessagesStreamEncoder } from '../../../src/protocols/messages/stream-encoder.js';
import { createEncodeContext } from './encode-context.js';
import { parseSseFrames } from './sse-frames.js';

function encodeAll(events: CanonicalStreamEvent[]) {
  const encoder = createMessagesStreamEncoder(createEncodeContext());
  const text = events.map((event) => encoder.encode(event)).join('');
  return { text, frames: parseSseFrames(text) };
}

const start: CanonicalStreamEvent = { type: 'start', id: 'chatcmpl-1', model: 'upstream' };
const finish = (unified: 'stop' | 'length' | 'tool-calls' = 'stop'): CanonicalStreamEvent => ({
  type: 'finish',
  finishReason: { unified },
  usage: { inputTokens: 30, cachedInputTokens: 10, outputTokens: 8 },
});

describe('createMessagesStreamEncoder', () => {
  describe('text', () => {
    it('should write the full named-event sequence for a text answer', () => {
      const { text, frames } = encodeAll([
        start,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hel' },
        { type: 'text-delta', id: 't', delta: 'lo!' },
        { type: 'text-end', id: 't' },
        finish(),
      ]);
      expect(text.startsWith('event: message_start\ndata: {')).toBe(true);
      expect(frames.every((frame) => frame.event === frame.data.type)).toBe(true);
      expect(frames.map((frame) => frame.data)).toEqual([
        {
          type: 'message_start',
          message: {
            id: 'msg_01TEST',
            type: 'message',
            role: 'assistant',
            model: 'claude-gateway',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            stop_details: null,
            container: null,
            usage: expect.objectContaining({
              input_tokens: 0,
              output_tokens: 0,
              cache_read_input_tokens: null,
              cache_creation_input_tokens: null,
            }),
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'lo!' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null, stop_details: null },
          usage: {
            input_tokens: 20,
            output_tokens: 8,
            cache_read_input_tokens: 10,
            cache_creation_input_tokens: null,
            output_tokens_details: null,
            server_tool_use: null,
          },
        },
        { type: 'message_stop' },
      ]);
    });

    it('should write each event as it arrives', () => {
      const encoder = createMessagesStreamEncoder(createEncodeContext());
      expect(encoder.encode(start)).toContain('event: message_start');
      expect(encoder.encode({ type: 'text-start', id: 't' })).toContain('event: content_block_start');
      expect(encoder.encode({ type: 'text-delta', id: 't', delta: 'a' })).toContain('"text":"a"');
    });

    it('should put the start usage into message_start', () => {
      const { frames } = encodeAll([{ ...start, id: 'msg_up', usage: { inputTokens: 100, cachedInputTokens: 60, outputTokens: 1 } }]);
      expect(frames[0]?.data).toMatchObject({
        message: { id: 'msg_up', usage: { input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 1 } },
      });
    });

    it('should report max_tokens for a truncated answer', () => {
      const { frames } = encodeAll([
        start,
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'cut' },
        finish('length'),
      ]);
      expect(frames.map((frame) => frame.event)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      expect(frames[4]?.data).toMatchObject({ delta: { stop_reason: 'max_tokens' } });
    });
  });

  describe('tool calls', () => {
    it('should number parallel tool calls as sequential blocks and report tool_use', () => {
      const { frames } = encodeAll([
        start,
        { type: 'tool-call-start', id: 'a', toolCallId: 'toolu_1', name: 'get_weather' },
        { type: 'tool-call-delta', id: 'a', delta: '{"city":' },
        { type: 'tool-call-delta', id: 'a', delta: '"Paris"}' },
        { type: 'tool-call-end', id: 'a' },
        { type: 'tool-call-start', id: 'b', toolCallId: 'toolu_2', name: 'get_time' },
        { type: 'tool-call-end', id: 'b' },
        finish('stop'),
      ]);
      expect(frames.slice(1, -2).map((frame) => frame.data)).toEqual([
        { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: {} } },
        { type: 'content_block_stop', index: 1 },
      ]);
      expect(frames.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    });

    it('should send no input delta for blank no-arg arguments', () => {
      const { frames } = encodeAll([
        start,
        { type: 'tool-call-start', id: 'a', toolCallId: 'toolu_1', name: 'now' },
        { type: 'tool-call-delta', id: 'a', delta: '' },
        { type: 'tool-call-delta', id: 'a', delta: '  ' },
        { type: 'tool-call-end', id: 'a' },
        finish('tool-calls'),
      ]);
      expect(frames.filter((frame) => frame.event === 'content_block_delta')).toEqual([]);
    });
  });

  describe('refusals', () => {
    it('should stream a refusal as a text block, Anthropic having no refusal content', () => {
      const { frames } = encodeAll([
        start,
        { type: 'refusal-start', id: 'r' },
        { type: 'refusal-delta', id: 'r', delta: "I'm sorry, " },
        { type: 'refusal-delta', id: 'r', delta: 'no.' },
        { type: 'refusal-end', id: 'r' },
        finish(),
      ]);
      expect(frames.slice(1, -2).map((frame) => frame.data)).toEqual([
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'm sorry, " } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'no.' } },
        { type: 'content_block_stop', index: 0 },
      ]);
    });
  });

  describe('reasoning', () => {
    it('should stream thinking deltas and the signature just before the block stop', () => {
      const { frames } = encodeAll([
        start,
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'The user wants' },
        { type: 'reasoning-end', id: 'r', signature: 'EqQB-sig' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'text-end', id: 't' },
        finish(),
      ]);
      expect(frames.slice(1, 5).map((frame) => frame.data)).toEqual([
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB-sig' } },
        { type: 'content_block_stop', index: 0 },
      ]);
      expect(frames[5]?.data).toMatchObject({ type: 'content_block_start', index: 1 });
    });

    it('should send redacted thinking whole in content_block_start with no deltas', () => {
      const { frames } = encodeAll([
        start,
        { type: 'reasoning-start', id: 'r', redactedData: 'opaque' },
        { type: 'reasoning-delta', id: 'r', delta: 'ignored' },
        { type: 'reasoning-end', id: 'r', signature: 'ignored' },
        finish(),
      ]);
      expect(frames.slice(1, 3).map((frame) => frame.data)).toEqual([
        { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'opaque' } },
        { type: 'content_block_stop', index: 0 },
      ]);
    });
  });

  describe('errors', () => {
    it('should write an in-band error event and nothing after it', () => {
      const encoder = createMessagesStreamEncoder(createEncodeContext());
      encoder.encode(start);
      encoder.encode({ type: 'text-start', id: 't' });
      const error = new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'Overloaded' });
      const text = encoder.encode({ type: 'error', error });
      expect(parseSseFrames(text)).toEqual([
        {
          event: 'error',
          data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_01TEST' },
        },
      ]);
      expect(encoder.encode({ type: 'text-delta', id: 't', delta: 'late' })).toBe('');
      expect(encoder.encode(finish())).toBe('');
    });
  });

  it('should write message_start first even when the provider sent no start event', () => {
    const { frames } = encodeAll([{ type: 'text-start', id: 't' }, { type: 'text-end', id: 't' }, finish()]);
    expect(frames.map((frame) => frame.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });
});
