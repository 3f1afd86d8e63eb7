import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalStreamEvent, upstreamErrorCode } from '../../../src/canonical/index.js';
import { createMessagesStreamDecoder } from '../../../src/protocols/messages/stream-decoder.js';
import { createMessagesStreamRelay } from '../../../src/protocols/messages/stream-relay.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';
import { parseSseText } from '../../helpers/parse-sse-text.js';

const options = { answerModel: 'my-claude', requestId: 'req_abc' };

function relayAll(messages: readonly SseMessage[]) {
  const relay = createMessagesStreamRelay(options);
  let wire = '';
  const events: CanonicalStreamEvent[] = [];
  for (const part of [...messages.map((message) => relay.relay(message)), relay.end()]) {
    wire += part.wire;
    events.push(...part.events);
  }
  return { wire, events };
}

const dataOf = (wire: string) => parseSseText(wire).map((message) => JSON.parse(message.data) as Record<string, unknown>);

describe('createMessagesStreamRelay', () => {
  it('should pass every event through as it came (pings too), but for the model message_start names', () => {
    const messages = sseMessagesFixture('messages', 'upstream-text');
    const { wire } = relayAll(messages);
    const upstream = messages.map((message) => JSON.parse(message.data) as Record<string, unknown>);
    expect(upstream.some((event) => event.type === 'ping')).toBe(true);
    expect(dataOf(wire)).toEqual(
      upstream.map((event) =>
        event.type === 'message_start' ? { ...event, message: { ...(event.message as object), model: 'my-claude' } } : event,
      ),
    );
    expect(parseSseText(wire).map((message) => message.event)).toEqual(messages.map((message) => message.event));
  });

  it('should report the start, the finish and the usage the translating decoder reports', () => {
    for (const name of ['upstream-text', 'upstream-thinking', 'upstream-tool-call']) {
      const messages = sseMessagesFixture('messages', name);
      const decoder = createMessagesStreamDecoder();
      const decoded = [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
      const { events } = relayAll(messages);
      expect(events[0], name).toEqual(decoded[0]);
      expect(events.at(-1), name).toEqual(decoded.at(-1));
      expect(decoded.at(-1), name).toMatchObject({ type: 'finish' });
    }
  });

  it('should pass content deltas on unread, marked as output', () => {
    // Not JSON inside, but the shape of one event: relayed without being parsed.
    const part = createMessagesStreamRelay(options).relay({ event: 'content_block_delta', data: '{"type":"content_block_delta",unread}' });
    expect(part).toEqual({
      wire: 'event: content_block_delta\ndata: {"type":"content_block_delta",unread}\n\n',
      events: [],
      output: true,
      outputChars: 0,
    });
  });

  it('should decode a delta without the shape of one event, and answer it with the invalid-stream error', () => {
    const part = createMessagesStreamRelay(options).relay({ event: 'content_block_delta', data: '{"type":"content_block_delta",' });
    expect(part.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'UPSTREAM_INVALID_STREAM' } });
    expect(dataOf(part.wire).at(-1)).toMatchObject({ type: 'error', request_id: 'req_abc' });
  });

  it('should end a stream cut short with an Anthropic error event carrying the gateway request id', () => {
    const messages = sseMessagesFixture('messages', 'upstream-text');
    const { wire, events } = relayAll(messages.slice(0, 4));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY' } });
    expect(parseSseText(wire).at(-1)?.event).toBe('error');
    expect(dataOf(wire).at(-1)).toMatchObject({ type: 'error', error: { type: 'api_error' }, request_id: 'req_abc' });
  });

  it('should close with message_stop an upstream that finished without sending it', () => {
    const messages = sseMessagesFixture('messages', 'upstream-text').filter((message) => message.event !== 'message_stop');
    const { wire, events } = relayAll(messages);
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
    expect(parseSseText(wire).at(-1)).toEqual({ event: 'message_stop', data: '{"type":"message_stop"}' });
  });

  it('should turn a frame that is not JSON into an error event', () => {
    const relay = createMessagesStreamRelay(options);
    const part = relay.relay({ event: 'message_start', data: 'not json' });
    expect(part.events).toEqual([expect.objectContaining({ type: 'error' })]);
    expect(dataOf(part.wire)).toEqual([expect.objectContaining({ type: 'error', request_id: 'req_abc' })]);
  });

  it('should pass an upstream error event on as sent', () => {
    const messages = sseMessagesFixture('messages', 'upstream-stream-error');
    const { wire, events } = relayAll(messages);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(dataOf(wire).at(-1)).toEqual(JSON.parse(messages.at(-1)!.data));
  });

  it("should write a failure in Anthropic's error shape", () => {
    const frame = createMessagesStreamRelay(options).fail(
      new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('X'), message: 'busy' }),
    );
    expect(parseSseText(frame)).toEqual([{ event: 'error', data: expect.any(String) }]);
    expect(dataOf(frame)[0]).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'busy' }, request_id: 'req_abc' });
  });
  it('should measure the text of each delta it passes on unread: text, thinking (as reasoning) and tool input, not the frame or a signature', () => {
    const relay = createMessagesStreamRelay(options);
    const delta = (body: object) =>
      relay.relay({ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: body }) });
    expect(delta({ type: 'text_delta', text: 'Hé "quoted"\n' })).toMatchObject({ output: true, outputChars: 12 });
    expect(delta({ type: 'thinking_delta', thinking: 'Let me think' })).toMatchObject({ outputChars: 12, reasoningChars: 12 });
    expect(delta({ type: 'input_json_delta', partial_json: '{"city": "Par' })).toMatchObject({ outputChars: 13 });
    expect(delta({ type: 'signature_delta', signature: 'EqQBCgIYAhIM' })).toMatchObject({ outputChars: 0 });
  });
});
