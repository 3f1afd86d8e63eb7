import { describe, expect, it } from 'vitest';
import {
  GatewayError,
  type CanonicalStreamEvent,
  type EventBatches,
  type RelayBatches,
  upstreamErrorCode,
} from '../../src/canonical/index.js';
import { mapEvents, readEvents, readRelay } from '../../src/routing/event-reader.js';

const delta = (text: string): CanonicalStreamEvent => ({ type: 'text-delta', id: 't', delta: text });

describe('readEvents', () => {
  it('should read a plain async iterable one event per batch, and stop it', async () => {
    let released = false;
    async function* events() {
      try {
        yield delta('a');
        yield delta('b');
      } finally {
        released = true;
      }
    }
    const reader = readEvents(events());
    expect(await reader.next()).toEqual({ events: [delta('a')] });
    await reader.stop();
    expect(released).toBe(true);
  });

  it('should read an EventBatches stream a batch at a time', async () => {
    const batches = [[delta('a'), delta('b')], [delta('c')]];
    let stopped = 0;
    const stream: EventBatches = {
      nextBatch: async () => batches.shift(),
      stop: async () => void stopped++,
      async *[Symbol.asyncIterator]() {},
    };
    const reader = readEvents(stream);
    expect(await reader.next()).toEqual({ events: [delta('a'), delta('b')] });
    expect(await reader.next()).toEqual({ events: [delta('c')] });
    expect(await reader.next()).toBeUndefined();
    await reader.stop();
    expect(stopped).toBe(1);
  });
});

describe('mapEvents', () => {
  it('should apply its function to every event of every batch', async () => {
    const batches = [{ events: [delta('a'), delta('b')], wire: 'data: a\n\n' }];
    const reader = mapEvents({ next: async () => batches.shift(), stop: async () => undefined }, (event) =>
      event.type === 'text-delta' ? { ...event, delta: event.delta.toUpperCase() } : event,
    );
    // A relayed frame no longer says what the events say: it is dropped, the events get encoded.
    expect(await reader.next()).toEqual({ events: [delta('A'), delta('B')] });
    expect(await reader.next()).toBeUndefined();
  });
});

describe('readRelay', () => {
  it("should hand over the relay's batches and its in-band error frames", async () => {
    const batches = [{ wire: 'data: a\n\n', events: [] }];
    let stopped = false;
    const relay: RelayBatches = {
      nextBatch: async () => batches.shift(),
      stop: async () => void (stopped = true),
      fail: (error) => `data: failed ${error.code}\n\n`,
    };
    const reader = readRelay(relay);
    expect(await reader.next()).toEqual({ wire: 'data: a\n\n', events: [] });
    expect(await reader.next()).toBeUndefined();
    expect(reader.fail?.(new GatewayError({ kind: 'upstream', code: upstreamErrorCode('X'), message: 'x' }))).toBe('data: failed X\n\n');
    await reader.stop();
    expect(stopped).toBe(true);
  });
});
