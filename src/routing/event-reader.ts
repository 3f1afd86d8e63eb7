import type { CanonicalStreamEvent, EventBatches } from '../canonical/index.js';

/** How the gateway reads a provider's stream: a batch of events at a time. */
export interface EventReader {
  /** The next events (never empty), or undefined once the stream has ended. */
  next(): Promise<readonly CanonicalStreamEvent[] | undefined>;
  /** Stops reading early and releases the provider. */
  stop(): Promise<void>;
}

function isEventBatches(events: AsyncIterable<CanonicalStreamEvent>): events is EventBatches {
  const candidate = events as Partial<EventBatches>;
  return typeof candidate.nextBatch === 'function' && typeof candidate.stop === 'function';
}

/** Reads a provider's stream in the batches it offers, or one event at a time from a plain async iterable. */
export function readEvents(events: AsyncIterable<CanonicalStreamEvent>): EventReader {
  if (isEventBatches(events)) return { next: () => events.nextBatch(), stop: () => events.stop() };
  const iterator = events[Symbol.asyncIterator]();
  return {
    next: async () => {
      const step = await iterator.next();
      return step.done ? undefined : [step.value];
    },
    stop: async () => {
      await iterator.return?.();
    },
  };
}

/** `reader` with `restore` applied to every event. */
export function mapEvents(reader: EventReader, restore: (event: CanonicalStreamEvent) => CanonicalStreamEvent): EventReader {
  return {
    next: async () => (await reader.next())?.map(restore),
    stop: () => reader.stop(),
  };
}
