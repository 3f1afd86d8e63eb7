import type { CanonicalStreamEvent, GatewayError, Usage } from '../canonical/index.js';
import { noteErrorCode } from '../http/request-log-notes.js';
import { toGatewayError } from '../http/send-error.js';
import { startSse } from '../http/sse-writer.js';
import type { HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { EncodeContext, InboundCodec, StreamEncoder } from '../protocols/codec.js';
import { keepAliveFrame } from '../protocols/keep-alive.js';
import type { EventReader, StreamBatch } from '../routing/event-reader.js';
import type { OpenedStream, StreamCallControl } from '../routing/read-ahead.js';
import type { ResolvedTimeouts } from '../routing/timeouts.js';

/**
 * A stream's start while its first output is awaited. The headers are held for the failover
 * window, so an early failure still gets a real status (and the call stage can try elsewhere);
 * then it commits: the headers go out with the opening events, what the upstream sends before its
 * output follows as it comes, and a keep-alive is written after each silent interval — until the
 * first output (`sendStream` takes over) or a failure (the protocol's in-band error). One timer:
 * the window, then the keep-alive interval.
 *
 * The opening events: a translated stream's come from the caller's encoder at once (its ids are
 * the gateway's anyway); a passed-through stream's are the upstream's own, sent when they come —
 * a Responses answer keeps the upstream's response id from first event to last (the openai SDK
 * checks, and `previous_response_id` must name it), a Messages `message_start` its input usage.
 */
export class HeldStream implements StreamCallControl {
  readonly #res: HttpResponse;
  readonly #codec: InboundCodec;
  readonly #context: EncodeContext;
  readonly #timeouts: ResolvedTimeouts;
  readonly #watch: ((event: CanonicalStreamEvent) => void) | undefined;
  #committed = false;
  #reader: EventReader | undefined;
  /** Batches before the first output, while the headers are held. */
  #held: StreamBatch[] = [];
  /** The caller's encoder, once the commit used it: `sendStream` goes on with it. */
  #encoder: StreamEncoder | undefined;
  /** Whether upstream frames were passed through since the commit (a relay's in-band error then continues them). */
  #relayed = false;
  #timer: NodeJS.Timeout | undefined;
  #wroteSinceTick = false;
  #done = false;
  /** The usage the upstream reported as it began (a `start` event written after the commit). */
  startUsage: Usage | undefined;
  /** The in-band error's code when the call failed after the commit. */
  errorCode: string | undefined;

  constructor(res: HttpResponse, codec: InboundCodec, context: EncodeContext, timeouts: ResolvedTimeouts, watch?: (event: CanonicalStreamEvent) => void) {
    this.#watch = watch;
    this.#res = res;
    this.#codec = codec;
    this.#context = context;
    this.#timeouts = timeouts;
  }

  committed(): boolean {
    return this.#committed;
  }

  /** The encoder the commit wrote with, for the rest of the stream; undefined when it used none. */
  get encoder(): StreamEncoder | undefined {
    return this.#encoder;
  }

  reading(reader: EventReader): void {
    this.#reader = reader;
    this.#held = [];
    // Committed before this call began reading: a translated stream's opening goes out now.
    if (this.#committed && !this.#done) this.#write(this.#gatewayOpening());
  }

  beforeOutput(batch: StreamBatch): void {
    if (!this.#committed) this.#held.push(batch);
    else if (!this.#done) this.#write(this.#textOf(batch));
  }

  /**
   * Waits for the call to open the stream, committing when the failover window passes first. Resolves
   * with the opened stream, or undefined when the call failed after the commit: the in-band error
   * (`interruption()` when the gateway ended the request, else the call's error) was written and the
   * answer ended; `errorCode` says which.
   */
  async open(call: Promise<OpenedStream>, logger: Logger, interruption: () => GatewayError | undefined): Promise<OpenedStream | undefined> {
    this.#timer = setTimeout(onTimer, this.#timeouts.failoverWindowMs, this);
    this.#timer.unref();
    try {
      return await call;
    } catch (error) {
      if (!this.#committed) throw error;
      if (this.#res.destroyed) {
        this.errorCode = 'CLIENT_CLOSED'; // the client left: nothing more to write
        return undefined;
      }
      const failure = interruption() ?? toGatewayError(error, logger, this.#context.requestId);
      this.errorCode = failure.code;
      noteErrorCode(this.#res, failure.code);
      this.#res.end(this.#failureText(failure));
      return undefined;
    } finally {
      this.#done = true;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** The batches held before the first output, for `sendStream` to send with it (none once committed: they went out). */
  takeHeld(): StreamBatch[] {
    const held = this.#held;
    this.#held = [];
    return held;
  }

  /** The timer fired: the window passed (commit), or a keep-alive interval did. */
  tick(): void {
    if (this.#done || this.#res.destroyed) return;
    if (!this.#committed) {
      this.#commit();
      this.#timer = setInterval(onTimer, this.#timeouts.keepAliveMs, this);
      this.#timer.unref();
      return;
    }
    if (!this.#wroteSinceTick) this.#res.write(keepAliveFrame(this.#codec.protocol));
    this.#wroteSinceTick = false;
  }

  #commit(): void {
    this.#committed = true;
    const held = this.#held;
    this.#held = [];
    // The upstream's own `start` when it came (its id and input usage), else the gateway's.
    let opening = held.some((batch) => batch.events.some((event) => event.type === 'start')) ? '' : this.#gatewayOpening();
    for (const batch of held) opening += this.#textOf(batch);
    void startSse(this.#res, this.#context.requestId, opening);
  }

  /** A translated stream's opening events, from the caller's encoder ('' for a stream passed through, or before a call reads). */
  #gatewayOpening(): string {
    const reader = this.#reader;
    if (reader === undefined || reader.fail !== undefined) return '';
    return this.#encoderOf().encode({ type: 'start', id: '', model: this.#context.request.model });
  }

  #write(text: string): void {
    if (text === '' || this.#res.destroyed) return;
    this.#wroteSinceTick = true;
    this.#res.write(text);
  }

  #encoderOf(): StreamEncoder {
    return (this.#encoder ??= this.#codec.createStreamEncoder(this.#context));
  }

  /** A batch's text for the caller: the upstream's frames when passed through, else its events encoded. */
  #textOf(batch: StreamBatch): string {
    const watch = this.#watch;
    for (const event of batch.events) {
      watch?.(event);
      if (event.type === 'start' && event.usage !== undefined) this.startUsage = event.usage;
    }
    if (batch.wire !== undefined) {
      if (batch.wire !== '') this.#relayed = true;
      return batch.wire;
    }
    const encoder = this.#encoderOf();
    let text = '';
    for (const event of batch.events) text += encoder.encode(event);
    return text;
  }

  /**
   * The in-band error: continuing the upstream's frames when they were passed through, else from the
   * caller's encoder (opening events first, when none went out: a protocol's error comes after them).
   */
  #failureText(error: GatewayError): string {
    const relayFail = this.#relayed ? this.#reader?.fail : undefined;
    if (relayFail !== undefined) return relayFail(error);
    const encoder = this.#encoderOf();
    const events: CanonicalStreamEvent[] = [{ type: 'start', id: '', model: this.#context.request.model }, { type: 'error', error }];
    return events.map((event) => encoder.encode(event)).join('');
  }
}

function onTimer(held: HeldStream): void {
  held.tick();
}
