import { describe, expect, it } from 'vitest';
import type { CanonicalStreamEvent, EventBatches } from '../../src/canonical/index.js';
import { mapEvents, readEvents } from '../../src/routing/event-reader.js';

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
    expect(await reader.next()).toEqual([delta('a')]);
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
    expect(await reader.next()).toEqual([delta('a'), delta('b')]);
    expect(await reader.next()).toEqual([delta('c')]);
    expect(await reader.next()).toBeUndefined();
    await reader.stop();
    expect(stopped).toBe(1);
  });
});

describe('mapEvents', () => {
  it('should apply its function to every event of every batch', async () => {
    const batches = [[delta('a'), delta('b')]];
    const reader = mapEvents({ next: async () => batches.shift(), stop: async () => undefined }, (event) =>
      event.type === 'text-delta' ? { ...event, delta: event.delta.toUpperCase() } : event,
    );
    expect(await reader.next()).toEqual([delta('A'), delta('B')]);
    expect(await reader.next()).toBeUndefined();
  });
});
