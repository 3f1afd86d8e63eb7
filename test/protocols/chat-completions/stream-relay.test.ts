import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent, RelayBatch } from '../../../src/canonical/index.js';
import { createChatStreamDecoder, createChatStreamRelay } from '../../../src/protocols/chat-completions/index.js';
import { sseMessagesFixture } from '../../helpers/fixtures.js';

function relayAll(name: string, includeUsage: boolean, cut?: number) {
  const relay = createChatStreamRelay({ answerModel: 'caller-model', includeUsage });
  const messages = sseMessagesFixture('chat-completions', name).slice(0, cut);
  const batches: RelayBatch[] = messages.map((message) => relay.relay(message));
  batches.push(relay.end());
  const events: CanonicalStreamEvent[] = batches.flatMap((batch) => batch.events);
  const wire = batches.map((batch) => batch.wire).join('');
  const frames = wire
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => frame.replace(/^data: /, ''));
  return { batches, events, wire, frames };
}

function translated(name: string): CanonicalStreamEvent[] {
  const decoder = createChatStreamDecoder();
  return [...sseMessagesFixture('chat-completions', name).flatMap((message) => decoder.decode(message)), ...decoder.end()];
}

describe('the Chat stream relay', () => {
  it("should pass every chunk on naming the caller's model, text chunks unread, and report the finish the translated stream reports", () => {
    const { batches, events, frames } = relayAll('upstream-text', true);
    expect(events[0]).toMatchObject({ type: 'start', id: 'chatcmpl-1' });
    expect(events.at(-1)).toEqual(translated('upstream-text').at(-1));
    // The two text chunks went out unread, their text counted (characters, not bytes).
    const unread = batches.filter((batch) => batch.output === true);
    expect(unread.map((batch) => batch.outputChars)).toEqual(['Héllo'.length, ' wörld 🌍!'.length]);
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame) as Record<string, unknown>);
    expect(chunks.map((chunk) => chunk.model)).toEqual(chunks.map(() => 'caller-model'));
    expect(chunks.map((chunk) => chunk.id)).toEqual(chunks.map(() => 'chatcmpl-1'));
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 3 } });
  });

  it('should keep the usage the gateway asked for from a caller who did not ask', () => {
    const { events, frames, wire } = relayAll('upstream-text', false);
    expect(wire).not.toContain('usage');
    expect(frames.at(-1)).toBe('[DONE]');
    // The gateway still knows it.
    expect(events.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 9, outputTokens: 3 } });
  });

  it('should decode what is more than text — reasoning, tool calls — and pass it on as written', () => {
    for (const name of ['upstream-deepseek-reasoning', 'upstream-tool-call', 'upstream-parallel-tools']) {
      const { events, frames } = relayAll(name, true);
      expect(events.at(-1)).toEqual(translated(name).at(-1));
      const upstreamChunks = sseMessagesFixture('chat-completions', name)
        .filter((message) => message.data !== '[DONE]')
        .map((message) => JSON.parse(message.data) as Record<string, unknown>);
      const relayed = frames.filter((frame) => frame !== '[DONE]').map((frame) => JSON.parse(frame) as Record<string, unknown>);
      expect(relayed).toEqual(upstreamChunks.map((chunk) => ('model' in chunk ? { ...chunk, model: 'caller-model' } : chunk)));
    }
  });

  it('should count an escaped text by its characters and still pass it unread', () => {
    const relay = createChatStreamRelay({ answerModel: 'm', includeUsage: false });
    const head = '{"id":"c","object":"chat.completion.chunk","created":1,"model":"up"';
    relay.relay({
      data: `${head},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
    });
    const batch = relay.relay({
      data: `${head},"choices":[{"index":0,"delta":{"content":"a\\"b\\n"},"logprobs":null,"finish_reason":null}],"usage":null}`,
    });
    expect(batch).toMatchObject({ output: true, outputChars: 4, events: [] });
    expect(JSON.parse(batch.wire.slice('data: '.length))).toEqual({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { content: 'a"b\n' }, logprobs: null, finish_reason: null }],
    });
  });

  it('should end a stream the upstream cut short with the in-band error, and one closed after its finish with [DONE]', () => {
    const cut = relayAll('upstream-text', true, 3);
    expect(cut.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'STREAM_ENDED_EARLY' } });
    expect(JSON.parse(cut.frames.at(-1)!)).toMatchObject({ error: { message: expect.stringContaining('ended before') } });
    const closed = relayAll('upstream-text', true, 5);
    expect(closed.events.at(-1)).toMatchObject({ type: 'finish' });
    expect(closed.frames.at(-1)).toBe('[DONE]');
  });

  it("should turn an in-band upstream error into the gateway's error frame", () => {
    const { events, frames } = relayAll('upstream-openrouter-error', true);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(JSON.parse(frames.at(-1)!)).toHaveProperty('error');
  });
});
