import type { CanonicalStreamEvent, EventBatches } from '../../canonical/index.js';
import type { StreamDecoder } from '../../protocols/codec.js';
import type { SseMessage } from '../../sse/format-sse.js';
import type { UpstreamSse } from './upstream.js';
import { UpstreamReadLoop, type ReadStep } from './upstream-read-loop.js';

/**
 * A translated upstream stream: its SSE answer decoded by its protocol's stream decoder, handed
 * over a batch at a time (the events of one upstream read), on the shared `UpstreamReadLoop`.
 * Nothing is decoded after a `finish` or an `error`.
 */
export class UpstreamEvents implements EventBatches {
  readonly #loop: UpstreamReadLoop<readonly CanonicalStreamEvent[]>;

  /** `open` makes the upstream call; `decoder` turns its messages into events. */
  constructor(open: () => Promise<UpstreamSse>, decoder: StreamDecoder) {
    const take = (messages: readonly SseMessage[]): ReadStep<readonly CanonicalStreamEvent[]> => {
      let events: CanonicalStreamEvent[] | undefined;
      for (const message of messages) {
        for (const event of decoder.decode(message)) {
          (events ??= []).push(event);
          if (event.type === 'finish' || event.type === 'error') return { batch: events, ended: event.type };
        }
      }
      return { batch: events };
    };
    const owed = () => {
      const events = decoder.end();
      return events.length > 0 ? events : undefined;
    };
    this.#loop = new UpstreamReadLoop(open, take, owed);
  }

  nextBatch(): Promise<readonly CanonicalStreamEvent[] | undefined> {
    return this.#loop.next();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One event at a time, for callers that iterate; stopping early stops the upstream. */
  async *[Symbol.asyncIterator](): AsyncGenerator<CanonicalStreamEvent> {
    try {
      for (let batch = await this.nextBatch(); batch !== undefined; batch = await this.nextBatch()) {
        // A loop, not `yield*`: over an array that wraps every event in an async-from-sync iterator.
        for (const event of batch) yield event;
      }
    } finally {
      await this.stop();
    }
  }
}
