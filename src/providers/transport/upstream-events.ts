import type { CanonicalStreamEvent, EventBatches } from '../../canonical/index.js';
import type { StreamDecoder } from '../../protocols/codec.js';
import type { UpstreamSse } from './upstream.js';

/**
 * The one read loop every built-in adapter's stream uses: an upstream SSE answer decoded by its
 * protocol's stream decoder, handed over a batch at a time (the events of one upstream read).
 * The call is made on the first read. After a `finish` the answer is marked complete, so the rest
 * of its body is drained and the connection reused; after an `error` (or an early stop) the
 * connection is closed. Nothing is read after a `finish` or an `error`.
 */
export class UpstreamEvents implements EventBatches {
  readonly #open: () => Promise<UpstreamSse>;
  readonly #decoder: StreamDecoder;
  #answer: UpstreamSse | undefined;
  #done = false;

  /** `open` makes the upstream call; `decoder` turns its messages into events. */
  constructor(open: () => Promise<UpstreamSse>, decoder: StreamDecoder) {
    this.#open = open;
    this.#decoder = decoder;
  }

  async nextBatch(): Promise<readonly CanonicalStreamEvent[] | undefined> {
    if (this.#done) return undefined;
    const answer = (this.#answer ??= await this.#open());
    for (;;) {
      const messages = await answer.nextBatch();
      if (messages === undefined) {
        this.#done = true;
        const owed = this.#decoder.end();
        return owed.length > 0 ? owed : undefined;
      }
      let events: CanonicalStreamEvent[] | undefined;
      for (const message of messages) {
        for (const event of this.#decoder.decode(message)) {
          (events ??= []).push(event);
          if (event.type === 'finish' || event.type === 'error') {
            if (event.type === 'finish') answer.complete();
            await this.stop();
            return events;
          }
        }
      }
      if (events !== undefined) return events;
    }
  }

  async stop(): Promise<void> {
    this.#done = true;
    await this.#answer?.return();
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
