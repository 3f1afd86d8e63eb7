import type { CanonicalStreamEvent, GatewayError, RelayBatch, RelayBatches } from '../../canonical/index.js';
import type { StreamRelay } from '../../protocols/codec.js';
import type { UpstreamSse } from './upstream.js';

const noEvents: readonly CanonicalStreamEvent[] = [];

/**
 * The read loop of a stream passed through to a caller of the same protocol: what
 * `UpstreamEvents` is to a translated stream. One batch per upstream read, its frames as the
 * protocol's relay wrote them; after a `finish` the connection is kept for reuse, after an
 * `error` (or an early stop) it is closed. Nothing is read after either.
 */
export class UpstreamRelay implements RelayBatches {
  readonly #open: () => Promise<UpstreamSse>;
  readonly #relay: StreamRelay;
  #answer: UpstreamSse | undefined;
  #done = false;

  /** `open` makes the upstream call (on the first read); `relay` passes its messages on. */
  constructor(open: () => Promise<UpstreamSse>, relay: StreamRelay) {
    this.#open = open;
    this.#relay = relay;
  }

  async nextBatch(): Promise<RelayBatch | undefined> {
    if (this.#done) return undefined;
    const answer = (this.#answer ??= await this.#open());
    for (;;) {
      const messages = await answer.nextBatch();
      if (messages === undefined) {
        this.#done = true;
        const owed = this.#relay.end();
        return owed.wire === '' && owed.events.length === 0 ? undefined : owed;
      }
      let wire = '';
      let events: CanonicalStreamEvent[] | undefined;
      for (const message of messages) {
        const part = this.#relay.relay(message);
        wire += part.wire;
        for (const event of part.events) {
          (events ??= []).push(event);
          if (event.type === 'finish' || event.type === 'error') {
            if (event.type === 'finish') answer.complete();
            await this.stop();
            return { wire, events };
          }
        }
      }
      if (wire !== '' || events !== undefined) return { wire, events: events ?? noEvents };
    }
  }

  async stop(): Promise<void> {
    this.#done = true;
    await this.#answer?.return();
  }

  fail(error: GatewayError): string {
    return this.#relay.fail(error);
  }
}
