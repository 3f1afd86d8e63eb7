import { describe, expect, it } from 'vitest';
import { GatewayError, upstreamErrorCode, type CanonicalStreamEvent } from '../../src/canonical/index.js';
import { readEvents } from '../../src/routing/event-reader.js';
import { readAhead } from '../../src/routing/read-ahead.js';

const start: CanonicalStreamEvent = { type: 'start', id: 'r1', model: 'm' };
const text: CanonicalStreamEvent = { type: 'text-start', id: 't1' };
const hi: CanonicalStreamEvent = { type: 'text-delta', id: 't1', delta: 'hi' };
const finish: CanonicalStreamEvent = { type: 'finish', finishReason: { unified: 'stop' }, usage: {} };
const overloaded = new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'busy' });

/** A provider stream that notes whether it was released (returned) by its reader. */
function provider(events: readonly CanonicalStreamEvent[], thenThrow?: Error) {
  const state = { released: false, pulled: 0 };
  async function* run(): AsyncGenerator<CanonicalStreamEvent> {
    try {
      for (const event of events) {
        state.pulled++;
        yield event;
      }
      if (thenThrow) throw thenThrow;
    } finally {
      state.released = true;
    }
  }
  return { events: readEvents(run()), state };
}

describe('readAhead', () => {
  it("should keep the rest of the first output event's batch in the opening", async () => {
    const delta: CanonicalStreamEvent = { type: 'text-delta', id: 't1', delta: 'hi' };
    let stopped = false;
    const batches = [{ events: [start] }, { events: [text, delta] }, { events: [finish] }];
    const opened = await readAhead({ next: async () => batches.shift(), stop: async () => void (stopped = true) });
    expect(opened.opening).toEqual([start, text, delta]);
    expect(opened.finished).toBe(false);
    expect(await opened.rest.next()).toEqual({ events: [finish] });
    expect(stopped).toBe(false);
  });

  it('should say the answer is finished when its batch holds the finish', async () => {
    const opened = await readAhead({ next: async () => ({ events: [start, text, finish] }), stop: async () => undefined });
    expect(opened.finished).toBe(true);
  });

  it('should stop at the first output event and leave the rest unread', async () => {
    const delta: CanonicalStreamEvent = { type: 'text-delta', id: 't1', delta: 'hi' };
    const { events, state } = provider([start, text, delta, { type: 'text-delta', id: 't1', delta: ' there' }, finish]);
    const opened = await readAhead(events);
    expect(opened.opening).toEqual([start, text, delta]);
    expect(opened.finished).toBe(false);
    expect(state.pulled).toBe(3);
    expect(await opened.rest.next()).toEqual({ events: [expect.objectContaining({ type: 'text-delta', delta: ' there' })] });
  });

  it('should hold opened blocks and empty deltas, and throw an error that follows them (no output yet)', async () => {
    const empty: CanonicalStreamEvent = { type: 'text-delta', id: 't1', delta: '' };
    const thinking: CanonicalStreamEvent = { type: 'reasoning-start', id: 'r' };
    const { events, state } = provider([start, thinking, text, empty], overloaded);
    await expect(readAhead(events)).rejects.toBe(overloaded);
    expect(state.released).toBe(true);
  });

  it('should count a tool call and redacted reasoning as output', async () => {
    const tool: CanonicalStreamEvent = { type: 'tool-call-start', id: 'c', toolCallId: 'call_1', name: 'f' };
    expect((await readAhead(provider([start, tool], overloaded).events)).opening).toEqual([start, tool]);
    const redacted: CanonicalStreamEvent = { type: 'reasoning-start', id: 'r', redactedData: 'x' };
    expect((await readAhead(provider([start, redacted], overloaded).events)).opening).toEqual([start, redacted]);
  });

  it('should say when the opening already holds the finish', async () => {
    const opened = await readAhead(provider([start, finish]).events);
    expect(opened.opening).toEqual([start, finish]);
    expect(opened.finished).toBe(true);
  });

  it('should throw an error event that comes before any output, and release the provider', async () => {
    const { events, state } = provider([start, { type: 'error', error: overloaded }, text]);
    await expect(readAhead(events)).rejects.toBe(overloaded);
    expect(state.released).toBe(true);
  });

  it('should throw what the provider throws before any output', async () => {
    const { events, state } = provider([start], overloaded);
    await expect(readAhead(events)).rejects.toBe(overloaded);
    expect(state.released).toBe(true);
  });

  it('should gather the passed-through frames up to the first output event into the opening', async () => {
    const batches = [
      { wire: 'A', events: [start] },
      { wire: 'B', events: [] },
      { wire: 'C', events: [text] },
      { wire: 'D', events: [hi] },
      { wire: 'E', events: [finish] },
    ];
    const opened = await readAhead({ next: async () => batches.shift(), stop: async () => undefined });
    expect(opened.openingWire).toBe('ABCD');
    expect(opened.opening).toEqual([start, text, hi]);
    expect(await opened.rest.next()).toEqual({ wire: 'E', events: [finish] });
  });

  it('should leave openingWire unset for a translated stream', async () => {
    const opened = await readAhead(provider([start, text, hi]).events);
    expect(opened.openingWire).toBeUndefined();
  });

  it('should fail with STREAM_ENDED_EARLY when the stream ends without output', async () => {
    await expect(readAhead(provider([start]).events)).rejects.toMatchObject({ code: 'STREAM_ENDED_EARLY', status: 502 });
  });
});
