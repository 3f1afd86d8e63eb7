import type { CanonicalStreamEvent } from './stream-event.js';
import type { GatewayError } from './errors.js';

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

/**
 * Part of an upstream stream passed through to a caller who speaks the upstream's protocol: the
 * frames as the caller gets them, and what they mean to the gateway.
 */
export interface RelayBatch {
  /** The upstream's SSE frames, as they go to the caller. */
  readonly wire: string;
  /**
   * The canonical events `wire` stands for, as far as the gateway needs them: `start`, the first
   * output, `finish` (with usage), `error`. Often empty: content deltas are passed on unread.
   */
  readonly events: readonly CanonicalStreamEvent[];
  /** Set when `wire` carries output passed on unread (content deltas): what `events` cannot say. */
  readonly output?: true;
  /** Characters of output text in the deltas passed on unread (reasoning included): what a cut stream is billed by. */
  readonly outputChars?: number;
  /** The reasoning part of `outputChars`. */
  readonly reasoningChars?: number;
}

/** An upstream stream passed through, a read at a time (`ProviderAdapter.relayStream`). */
export interface RelayBatches {
  /** The next frames (never empty), or undefined once the stream has ended. */
  nextBatch(): Promise<RelayBatch | undefined>;
  /** Stops reading early and releases the upstream. */
  stop(): Promise<void>;
  /** The protocol's in-band error frame for a failure after the stream began, continuing it. */
  fail(error: GatewayError): string;
}
