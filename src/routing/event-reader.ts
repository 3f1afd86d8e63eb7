import type { CanonicalStreamEvent, EventBatches, GatewayError, RelayBatches } from '../canonical/index.js';

/** A provider stream's events of one read; `wire` when the stream is passed through as it came. */
export interface StreamBatch {
  readonly events: readonly CanonicalStreamEvent[];
  /** The frames for the caller, written by the provider's relay: sent instead of encoding `events`. */
  readonly wire?: string;
  /** For a passed-through stream: `wire` carries output its events do not show (unread content deltas). */
  readonly output?: true;
  /** For a passed-through stream: characters of text in the deltas `wire` carries unread, and the reasoning part of them. */
  readonly outputChars?: number;
  readonly reasoningChars?: number;
}

/** How the gateway reads a provider's stream: a batch at a time. */
export interface EventReader {
  /** The next batch (never empty), or undefined once the stream has ended. */
  next(): Promise<StreamBatch | undefined>;
  /** Stops reading early and releases the provider. */
  stop(): Promise<void>;
  /** Set for a passed-through stream: its in-band error frame (the caller's encoder never saw the stream). */
  readonly fail?: (error: GatewayError) => string;
}

function isEventBatches(events: AsyncIterable<CanonicalStreamEvent>): events is EventBatches {
  const candidate = events as Partial<EventBatches>;
  return typeof candidate.nextBatch === 'function' && typeof candidate.stop === 'function';
}

/** Reads a provider's stream in the batches it offers, or one event at a time from a plain async iterable. */
export function readEvents(events: AsyncIterable<CanonicalStreamEvent>): EventReader {
  if (isEventBatches(events)) {
    return {
      next: async () => {
        const batch = await events.nextBatch();
        return batch === undefined ? undefined : { events: batch };
      },
      stop: () => events.stop(),
    };
  }
  const iterator = events[Symbol.asyncIterator]();
  return {
    next: async () => {
      const step = await iterator.next();
      return step.done ? undefined : { events: [step.value] };
    },
    stop: async () => {
      await iterator.return?.();
    },
  };
}

/** Reads a stream the provider passes through (`ProviderAdapter.relayStream`). */
export function readRelay(relay: RelayBatches): EventReader {
  return { next: () => relay.nextBatch(), stop: () => relay.stop(), fail: (error) => relay.fail(error) };
}

/** `reader` with `restore` applied to every event (of a translated stream: frames passed through cannot be). */
export function mapEvents(reader: EventReader, restore: (event: CanonicalStreamEvent) => CanonicalStreamEvent): EventReader {
  return {
    next: async () => {
      const batch = await reader.next();
      return batch === undefined ? undefined : { events: batch.events.map(restore) };
    },
    stop: () => reader.stop(),
  };
}
