import { GatewayError, type CanonicalStreamEvent } from '../canonical/index.js';
import type { EventReader } from './event-reader.js';

/** A stream read up to its first output event: nothing has reached the client yet. */
export interface OpenedStream {
  /** The `start` events, the first output event, and whatever else came in the same batch. */
  readonly opening: readonly CanonicalStreamEvent[];
  /** Whether `opening` already ends the answer (its `finish` or an in-band error): then `rest` has nothing to give. */
  readonly finished: boolean;
  /** The batches after `opening`. Whoever holds it calls `stop()` when leaving early. */
  readonly rest: EventReader;
}

export function streamEndedEarly(): GatewayError {
  return new GatewayError({
    kind: 'upstream',
    code: 'STREAM_ENDED_EARLY',
    message: "The provider's stream ended before the answer was finished.",
  });
}

const ends = (event: CanonicalStreamEvent) => event.type === 'finish' || event.type === 'error';

/**
 * Reads a provider's stream ahead to its first output event. A failure before it — a thrown
 * error, an `error` event, or an end without output — is thrown as a GatewayError, so the caller
 * still gets a real HTTP status and routing can retry or fall back; the provider is released.
 * Failures after it are the stream sender's to turn into the protocol's in-band error.
 */
export async function readAhead(rest: EventReader): Promise<OpenedStream> {
  try {
    const opening: CanonicalStreamEvent[] = [];
    for (;;) {
      const batch = await rest.next();
      if (batch === undefined) throw streamEndedEarly();
      for (let index = 0; index < batch.length; index++) {
        const event = batch[index]!;
        if (event.type === 'start') {
          opening.push(event);
          continue;
        }
        if (event.type === 'error') throw event.error;
        // The first output event: the rest of its batch goes out with it.
        for (; index < batch.length; index++) opening.push(batch[index]!);
        return { opening, finished: opening.some(ends), rest };
      }
    }
  } catch (error) {
    // Releases the provider (and its upstream request).
    await rest.stop().catch(() => undefined);
    throw error;
  }
}
