import { describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalStreamEvent, upstreamErrorCode } from '../../../src/canonical/index.js';
import { createResponsesStreamDecoder } from '../../../src/protocols/responses/stream-decoder.js';
import { createResponsesStreamRelay } from '../../../src/protocols/responses/stream-relay.js';
import { parseSseText } from '../../helpers/parse-sse-text.js';
import { sseMessagesFixture, type FixtureProtocol } from '../../helpers/fixtures.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';

const options = { answerModel: 'my-gpt', upstreamModel: 'gpt-5', requestId: 'req_abc', created: 1_700_000_000 };

/** Everything the relay makes of `messages`: the text for the caller and the events it read. */
function relayAll(messages: readonly SseMessage[]) {
  const relay = createResponsesStreamRelay(options);
  let wire = '';
  const events: CanonicalStreamEvent[] = [];
  for (const message of [...messages.map((m) => relay.relay(m)), relay.end()]) {
    wire += message.wire;
    events.push(...message.events);
  }
  return { wire, events, relay };
}

const fixture = (name: string, protocol: FixtureProtocol = 'responses') => sseMessagesFixture(protocol, name);
const dataOf = (wire: string) => parseSseText(wire).map((message) => JSON.parse(message.data) as Record<string, unknown>);

describe('createResponsesStreamRelay', () => {
  it('should pass every event through as it came, but for the model the snapshots name', () => {
    const messages = fixture('upstream-text');
    const { wire } = relayAll(messages);
    const relayed = dataOf(wire);
    const upstream = messages.map((message) => JSON.parse(message.data) as Record<string, unknown>);
    expect(relayed).toHaveLength(upstream.length);
    relayed.forEach((event, index) => {
      const original = upstream[index]!;
      if (original.response === undefined) expect(event).toEqual(original);
      else expect(event).toEqual({ ...original, response: { ...(original.response as object), model: 'my-gpt' } });
    });
    // Each frame keeps its event name, and the deltas their exact bytes.
    expect(parseSseText(wire).map((message) => message.event)).toEqual(messages.map((message) => message.event));
    const deltas = messages.filter((message) => message.event === 'response.output_text.delta');
    for (const delta of deltas) expect(wire).toContain(`data: ${delta.data}\n\n`);
  });

  it('should report the start, the finish and the usage the translating decoder reports', () => {
    for (const name of ['upstream-text', 'upstream-tool-call', 'upstream-reasoning', 'upstream-incomplete']) {
      const messages = fixture(name);
      const decoder = createResponsesStreamDecoder({ model: 'gpt-5' });
      const decoded = [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
      const { events } = relayAll(messages);
      expect(events[0], name).toEqual(decoded[0]);
      expect(events.at(-1), name).toEqual(decoded.at(-1));
      expect(decoded.at(-1), name).toMatchObject({ type: 'finish' });
    }
  });

  it('should not read the content deltas, only mark them as output', () => {
    const relay = createResponsesStreamRelay(options);
    // Not JSON inside, but the shape of one event: a delta is passed on unread, so this cannot fail.
    const part = relay.relay({ event: 'response.output_text.delta', data: '{"type":"response.output_text.delta",unread}' });
    expect(part).toEqual({
      wire: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta",unread}\n\n',
      events: [],
      output: true,
      outputChars: 0,
    });
  });

  it("should measure each delta's text as the output sent, reasoning apart", () => {
    const relay = createResponsesStreamRelay(options);
    const delta = (type: string, text: string) =>
      relay.relay({ event: type, data: JSON.stringify({ type, sequence_number: 5, item_id: 'msg_1', delta: text }) });
    expect(delta('response.output_text.delta', 'Hello, "world"')).toMatchObject({ outputChars: 14 });
    expect(delta('response.reasoning_summary_text.delta', 'Thinking')).toMatchObject({ outputChars: 8, reasoningChars: 8 });
    expect(delta('response.function_call_arguments.delta', '{"a":1}')).toMatchObject({ outputChars: 7 });
  });

  it('should decode a delta without the shape of one event, so that it ends in the invalid-stream error', () => {
    const part = createResponsesStreamRelay(options).relay({
      event: 'response.output_text.delta',
      data: '{"type":"response.output_text.delta",',
    });
    expect(part.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'UPSTREAM_INVALID_STREAM' } });
  });

  it('should name the event of an upstream that sends data lines only', () => {
    const messages = fixture('upstream-text').map((message) => ({ data: message.data }));
    const { wire } = relayAll(messages);
    expect(parseSseText(wire).map((message) => message.event)).toEqual(fixture('upstream-text').map((message) => message.event));
  });

  it('should rename the model whatever the JSON spacing, and re-serialise when a nested model comes first', () => {
    const spaced = {
      event: 'response.created',
      data: '{"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "model" : "gpt-5", "output": []}}',
    };
    expect(dataOf(relayAll([spaced]).wire)[0]).toMatchObject({ response: { model: 'my-gpt' } });
    const nested = {
      event: 'response.created',
      data: JSON.stringify({
        type: 'response.created',
        sequence_number: 0,
        response: { tools: [{ type: 'image_generation', model: 'gpt-image-1' }], id: 'r', model: 'gpt-5' },
      }),
    };
    expect(dataOf(relayAll([nested]).wire)[0]).toEqual({
      type: 'response.created',
      sequence_number: 0,
      response: { tools: [{ type: 'image_generation', model: 'gpt-image-1' }], id: 'r', model: 'my-gpt' },
    });
  });

  it('should drop frames that are not events, as the translated path does', () => {
    expect(relayAll([{ data: '[DONE]' }]).wire).not.toContain('[DONE]');
  });

  it('should end a stream cut short with response.failed, numbered after the last event, holding the items sent', () => {
    const messages = fixture('upstream-text');
    const cut = messages.slice(
      0,
      messages.findIndex((message) => message.event === 'response.output_text.done'),
    );
    const { wire, events } = relayAll(cut);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY' } });
    const relayed = dataOf(wire);
    const failed = relayed.at(-1)!;
    expect(parseSseText(wire).at(-1)?.event).toBe('response.failed');
    expect(failed).toMatchObject({
      type: 'response.failed',
      sequence_number: (relayed.at(-2)!.sequence_number as number) + 1,
      response: { id: 'resp_1', model: 'my-gpt', status: 'failed', error: { code: 'server_error' }, usage: null },
    });
    expect((failed.response as { output: unknown[] }).output).toEqual([
      expect.objectContaining({ id: 'msg_1', type: 'message', status: 'incomplete' }),
    ]);
  });

  it('should number a failure after content deltas it did not read', () => {
    const relay = createResponsesStreamRelay(options);
    relay.relay({
      event: 'response.created',
      data: JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', model: 'gpt-5' } }),
    });
    relay.relay({ event: 'response.output_text.delta', data: '{"type":"response.output_text.delta","sequence_number":1}' });
    relay.relay({ event: 'response.output_text.delta', data: '{"type":"response.output_text.delta","sequence_number":2}' });
    const failed = dataOf(relay.fail(new GatewayError({ kind: 'rate_limit', code: upstreamErrorCode('X'), message: 'slow down' })))[0];
    expect(failed).toMatchObject({
      type: 'response.failed',
      sequence_number: 3,
      response: { status: 'failed', error: { code: 'rate_limit_exceeded', message: 'slow down' } },
    });
  });

  it("should write a failure before any snapshot with the gateway's own response id", () => {
    const failed = dataOf(
      createResponsesStreamRelay(options).fail(new GatewayError({ kind: 'upstream', code: upstreamErrorCode('X'), message: 'gone' })),
    )[0];
    expect(failed).toMatchObject({
      sequence_number: 0,
      response: { id: 'resp_abc', created_at: 1_700_000_000, model: 'my-gpt', output: [] },
    });
  });

  it('should pass an upstream failure on as sent, and report it as an error', () => {
    for (const name of ['upstream-failed', 'upstream-error-event']) {
      const messages = fixture(name);
      const { wire, events } = relayAll(messages);
      expect(events.at(-1), name).toMatchObject({ type: 'error' });
      const last = messages.at(-1)!;
      expect(dataOf(wire).at(-1), name).toMatchObject({ type: (JSON.parse(last.data) as { type: string }).type });
    }
  });
});
