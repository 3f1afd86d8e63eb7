import type { CanonicalStreamEvent } from './stream-event.js';

/**
 * A provider stream that can also be read a batch at a time: the events one upstream read carried,
 * handed over at once instead of one promise per event. The built-in adapters' streams are such;
 * any other `AsyncIterable` of events works too, one event per batch.
 */
export interface EventBatches extends AsyncIterable<CanonicalStreamEvent> {
  /** The next events (never empty), or undefined once the stream has ended. */
  nextBatch(): Promise<readonly CanonicalStreamEvent[] | undefined>;
  /** Stops reading early and releases the upstream. */
  stop(): Promise<void>;
}
