import type { CanonicalStreamEvent, GatewayError, RelayBatch, RelayBatches } from '../../canonical/index.js';
import type { StreamRelay } from '../../protocols/codec.js';
import type { SseMessage } from '../../sse/format-sse.js';
import type { UpstreamSse } from './upstream.js';
import { UpstreamReadLoop, type ReadStep } from './upstream-read-loop.js';

const noEvents: readonly CanonicalStreamEvent[] = [];

/**
 * An upstream stream passed through to a caller of the same protocol: what `UpstreamEvents` is to
 * a translated stream. One batch per upstream read, its frames as the protocol's relay wrote
 * them, on the shared `UpstreamReadLoop`.
 */
export class UpstreamRelay implements RelayBatches {
  readonly #relay: StreamRelay;
  readonly #loop: UpstreamReadLoop<RelayBatch>;

  /** `open` makes the upstream call (on the first read); `relay` passes its messages on. */
  constructor(open: () => Promise<UpstreamSse>, relay: StreamRelay) {
    this.#relay = relay;
    const take = (messages: readonly SseMessage[]): ReadStep<RelayBatch> => {
      let wire = '';
      let events: CanonicalStreamEvent[] | undefined;
      let output = false;
      let outputChars = 0;
      let reasoningChars = 0;
      const batch = (): RelayBatch =>
        output ? { wire, events: events ?? noEvents, output, outputChars, reasoningChars } : { wire, events: events ?? noEvents };
      for (const message of messages) {
        const part = relay.relay(message);
        wire += part.wire;
        if (part.output === true) {
          output = true;
          outputChars += part.outputChars ?? 0;
          reasoningChars += part.reasoningChars ?? 0;
        }
        for (const event of part.events) {
          (events ??= []).push(event);
          if (event.type === 'finish' || event.type === 'error') return { batch: batch(), ended: event.type };
        }
      }
      return { batch: wire !== '' || events !== undefined ? batch() : undefined };
    };
    const owed = () => {
      const last = relay.end();
      return last.wire === '' && last.events.length === 0 ? undefined : last;
    };
    this.#loop = new UpstreamReadLoop(open, take, owed);
  }

  nextBatch(): Promise<RelayBatch | undefined> {
    return this.#loop.next();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  fail(error: GatewayError): string {
    return this.#relay.fail(error);
  }
}
