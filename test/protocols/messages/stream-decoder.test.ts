import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createMessagesStreamDecoder } from '../../../src/protocols/messages/stream-decoder.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';
import { checkStreamEvents } from '../../../src/testing/check-stream-events.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

function decodeAll(messages: readonly SseMessage[]): CanonicalStreamEvent[] {
  const decoder = createMessagesStreamDecoder();
  return [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
}

const frame = (data: Record<string, unknown>): SseMessage => ({ event: String(data.type), data: JSON.stringify(data) });

describe('createMessagesStreamDecoder', () => {
  describe('plain text', () => {
    it('should turn the transcript into start, one text block and a stop finish with usage', () => {
      expect(decodeAll(sseMessagesFixture('messages', 'upstream-text'))).toEqual([
        {
          type: 'start',
          id: 'msg_1',
          model: 'claude-x',
          usage: { inputTokens: 25, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, totalTokens: 26 },
        },
        { type: 'text-start', id: 'b0' },
        { type: 'text-delta', id: 'b0', delta: 'Hel' },
        { type: 'text-delta', id: 'b0', delta: 'lo!' },
        { type: 'text-end', id: 'b0' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'end_turn' },
          usage: { inputTokens: 25, outputTokens: 12, cachedInputTokens: 0, cacheWriteTokens: 0, totalTokens: 37 },
        },
      ]);
    });

    it('should emit each delta as soon as its event arrives', () => {
      const decoder = createMessagesStreamDecoder();
      const messages = sseMessagesFixture('messages', 'upstream-text');
      decoder.decode(messages[0]!);
      decoder.decode(messages[1]!);
      expect(decoder.decode(messages[3]!)).toEqual([{ type: 'text-delta', id: 'b0', delta: 'Hel' }]);
    });
  });

  describe('tool calls', () => {
    it('should pass partial JSON through as it arrives, skipping empty fragments', () => {
      const events = decodeAll(sseMessagesFixture('messages', 'upstream-tool-call'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.filter((event) => ('id' in event && event.id === 'b1') || event.type === 'finish')).toEqual([
        { type: 'tool-call-start', id: 'b1', toolCallId: 'toolu_01T1', name: 'get_weather' },
        { type: 'tool-call-delta', id: 'b1', delta: '{"city": "Pa' },
        { type: 'tool-call-delta', id: 'b1', delta: 'ris"}' },
        { type: 'tool-call-end', id: 'b1' },
        expect.objectContaining({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' } }),
      ]);
    });

    it('should give a tool call without any JSON the arguments {}', () => {
      const events = decodeAll([
        frame({ type: 'message_start', message: { id: 'msg_n', model: 'm', usage: { input_tokens: 1 } } }),
        frame({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_n', name: 'now', input: {} } }),
        frame({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
        frame({ type: 'content_block_stop', index: 0 }),
        frame({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
        frame({ type: 'message_stop' }),
      ]);
      expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([{ type: 'tool-call-delta', id: 'b0', delta: '{}' }]);
    });
  });

  describe('thinking', () => {
    it('should hold the signature until the thinking block ends and keep redacted data', () => {
      const events = decodeAll(sseMessagesFixture('messages', 'upstream-thinking'));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.slice(1, 6)).toEqual([
        { type: 'reasoning-start', id: 'b0' },
        { type: 'reasoning-delta', id: 'b0', delta: 'The user wants…' },
        { type: 'reasoning-end', id: 'b0', signature: 'EqQBCgIYAhIM1gbc…' },
        { type: 'reasoning-start', id: 'b1', redactedData: 'EmwKAhgBEgy3va3pzix' },
        { type: 'reasoning-end', id: 'b1' },
      ]);
    });

    it('should report input as the total with cache reads and writes, and thinking tokens', () => {
      const finish = decodeAll(sseMessagesFixture('messages', 'upstream-thinking')).at(-1);
      expect(finish).toEqual({
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: {
          inputTokens: 2572,
          outputTokens: 89,
          cachedInputTokens: 2000,
          cacheWriteTokens: 100,
          reasoningTokens: 40,
          totalTokens: 2661,
        },
      });
    });
  });

  describe('stop sequences', () => {
    it('should carry the stop sequence that fired', () => {
      const messages = sseMessagesFixture('messages', 'upstream-text').map((message) =>
        message.event === 'message_delta'
          ? frame({ type: 'message_delta', delta: { stop_reason: 'stop_sequence', stop_sequence: '###' }, usage: { output_tokens: 2 } })
          : message,
      );
      expect(decodeAll(messages).at(-1)).toMatchObject({ finishReason: { unified: 'stop', raw: 'stop_sequence' }, stopSequence: '###' });
    });
  });

  describe('errors', () => {
    it('should turn an in-band overloaded error into a retryable overloaded GatewayError and stop', () => {
      const events = decodeAll(sseMessagesFixture('messages', 'upstream-stream-error'));
      const last = events.at(-1);
      expect(last?.type).toBe('error');
      expect(last?.type === 'error' && last.error).toMatchObject({
        kind: 'overloaded',
        status: 529,
        retryable: true,
        message: 'Overloaded',
      });
      expect(events.filter((event) => event.type === 'error')).toHaveLength(1);
    });

    it('should report a stream that ends before message_delta as ended early', () => {
      const events = decodeAll(sseMessagesFixture('messages', 'upstream-text').slice(0, 4));
      expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY', retryable: true } });
    });

    it('should finish a stream cut after message_delta', () => {
      const events = decodeAll(sseMessagesFixture('messages', 'upstream-text').slice(0, -1));
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    });

    it('should report data that is not JSON as an error', () => {
      const decoder = createMessagesStreamDecoder();
      expect(decoder.decode({ event: 'message_start', data: '{oops' })).toEqual([
        expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'UPSTREAM_INVALID_STREAM' }) }),
      ]);
    });
  });

  describe('unknown content', () => {
    it('should pass server-tool blocks on verbatim and skip unknown events without breaking the stream', () => {
      const events = decodeAll([
        frame({ type: 'message_start', message: { id: 'msg_s', model: 'm', usage: { input_tokens: 5 }, container: null } }),
        frame({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
        }),
        frame({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } }),
        frame({ type: 'content_block_stop', index: 0 }),
        frame({ type: 'future_event', anything: true }),
        frame({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
        frame({ type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: {} } }),
        frame({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'ok' } }),
        frame({ type: 'content_block_stop', index: 1 }),
        frame({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }),
        frame({ type: 'message_stop' }),
      ]);
      expect(checkStreamEvents(events)).toEqual([]);
      expect(events.map((event) => event.type)).toEqual([
        'start',
        'provider-start',
        'provider-delta',
        'provider-end',
        'text-start',
        'text-delta',
        'text-end',
        'finish',
      ]);
      expect(events.slice(1, 3)).toEqual([
        {
          type: 'provider-start',
          id: 'b0',
          protocol: 'messages',
          kind: 'server_tool_use',
          data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
        },
        { type: 'provider-delta', id: 'b0', data: { type: 'input_json_delta', partial_json: '{"query":"x"}' } },
      ]);
      expect(events[0]).toMatchObject({ extensions: { messages: { container: null } } });
    });
  });
});
