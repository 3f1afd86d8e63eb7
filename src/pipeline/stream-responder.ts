import { streamEndedEarly, type CanonicalStreamEvent, type GatewayError, type Usage } from '../canonical/index.js';
import { noteErrorCode } from '../http/request-log-notes.js';
import { toGatewayError } from '../http/send-error.js';
import { SseWriter, startSse } from '../http/sse-writer.js';
import type { HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { EncodeContext, InboundCodec, StreamEncoder } from '../protocols/codec.js';
import { keepAliveFrame } from '../protocols/keep-alive.js';
import type { RequestAbort } from '../providers/transport/cancellation.js';
import type { EventReader, StreamBatch } from '../routing/event-reader.js';
import type { OpenedStream, StreamCallControl } from '../routing/read-ahead.js';
import type { ResolvedTimeouts } from '../routing/timeouts.js';
import { repeatedErrorLogOf } from './repeated-error-log.js';

/** How a stream that began ended. */
export interface StreamOutcome {
  /** The `finish` event's usage; undefined when the stream never finished. */
  usage: Usage | undefined;
  /** The in-band error's code when the stream failed after its headers went out. */
  errorCode: string | undefined;
  /** The usage the provider reported as the answer began (Anthropic's input count), for a stream cut short. */
  startUsage: Usage | undefined;
  /** Characters of output text sent (the deltas' text, whichever path): a cut stream's output is estimated from it. */
  outputChars: number;
  /** The reasoning part of `outputChars`. */
  reasoningChars: number;
  /** Epoch milliseconds when the first output went out. */
  firstOutputAt: number | undefined;
}

/** What answering with a stream needs besides the response. */
export interface StreamResponderOptions {
  readonly codec: InboundCodec;
  readonly encodeContext: EncodeContext;
  readonly abort: RequestAbort;
  readonly logger: Logger;
  /** Why the gateway ended the request itself, if it did (a shutdown): the stream ends with it. */
  readonly interruption: () => GatewayError | undefined;
  /** Told of each event as it goes out (the route's watching stages). */
  readonly watch: ((event: CanonicalStreamEvent) => void) | undefined;
}

/**
 * One streamed answer, from the provider call to its last event. Two phases:
 *
 * - `open`: while the first output is awaited, the headers are held for the failover window, so an
 *   early failure still gets a real status (and routing can try elsewhere). When the window passes
 *   first, the stream commits: the headers go out with the opening events, what the upstream sends
 *   before its output follows as it comes (routing hands it over through `beforeOutput`), and a
 *   keep-alive is written after each silent interval. One timer: the window, then the interval.
 * - `send`: the opening (with whatever was held) in one write, then each event as it comes, with
 *   backpressure. A failure from here on is the protocol's in-band error event; a client that leaves
 *   stops the provider; a request the gateway interrupted ends with the interruption's error.
 *
 * Every event goes through one place (`#textOf`), which tells the watchers and counts what the
 * outcome reports: usage, the in-band error, and the output text sent, for a stream cut short.
 *
 * The opening events: a translated stream's come from the caller's encoder (its ids are the
 * gateway's anyway); a passed-through stream's are the upstream's own — a Responses answer keeps
 * the upstream's response id from first event to last (the openai SDK checks, and
 * `previous_response_id` must name it), a Messages `message_start` its input usage.
 */
export class StreamResponder implements StreamCallControl {
  readonly outcome: StreamOutcome = {
    usage: undefined,
    errorCode: undefined,
    startUsage: undefined,
    outputChars: 0,
    reasoningChars: 0,
    firstOutputAt: undefined,
  };
  readonly #res: HttpResponse;
  readonly #setup: StreamResponderOptions;
  #committed = false;
  /** The reader of the attempt being read, while the stream is opened. */
  #reader: EventReader | undefined;
  /** Batches before the first output, while the headers are held. */
  #held: StreamBatch[] = [];
  /** Created on first use: a stream passed through needs none. */
  #encoder: StreamEncoder | undefined;
  /** Whether upstream frames were passed through since the commit (a relay's in-band error then continues them). */
  #relayed = false;
  /** Whether the event that ends the answer (`finish`, `error`) went through. */
  #finished = false;
  #timer: NodeJS.Timeout | undefined;
  #wroteSinceTick = false;
  #opening = true;

  constructor(res: HttpResponse, setup: StreamResponderOptions) {
    this.#res = res;
    this.#setup = setup;
  }

  committed(): boolean {
    return this.#committed;
  }

  reading(reader: EventReader): void {
    this.#reader = reader;
    this.#held = [];
    // Committed before this call began reading: a translated stream's opening goes out now.
    if (this.#committed && this.#opening) this.#write(this.#gatewayOpening());
  }

  beforeOutput(batch: StreamBatch): void {
    if (!this.#committed) this.#held.push(batch);
    else if (this.#opening) this.#write(this.#textOf(batch.events, batch.wire, batch));
  }

  /**
   * Waits for the call to open the stream, committing when the failover window passes first. Resolves
   * with the opened stream, or undefined when the call failed after the commit: the in-band error
   * (the interruption when the gateway ended the request, else the call's error) was written and the
   * answer ended; `outcome.errorCode` says which. A failure before the commit is thrown.
   */
  async open(call: Promise<OpenedStream>, timeouts: ResolvedTimeouts): Promise<OpenedStream | undefined> {
    this.#timer = setTimeout(onTimer, timeouts.failoverWindowMs, this, timeouts.keepAliveMs);
    this.#timer.unref();
    try {
      return await call;
    } catch (error) {
      if (!this.#committed) throw error;
      if (this.#res.destroyed) {
        this.outcome.errorCode = 'CLIENT_CLOSED'; // the client left: nothing more to write
        return undefined;
      }
      const { interruption, logger, encodeContext } = this.#setup;
      const failure = interruption() ?? toGatewayError(error, logger, encodeContext.requestId);
      this.outcome.errorCode = failure.code;
      noteErrorCode(this.#res, failure.code);
      this.#res.end(this.#openingFailureText(failure));
      return undefined;
    } finally {
      this.#opening = false;
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Sends a stream that was read ahead to its first output event, to its end; `outcome` then says how it ended. */
  async send(opened: OpenedStream): Promise<void> {
    const { outcome } = this;
    const { abort, logger, encodeContext, interruption } = this.#setup;
    const writer = new SseWriter(this.#res);
    const { rest } = opened;
    if (opened.finished) this.#finished = true;
    /** The in-band error, in the caller's protocol: continuing the relayed frames when they were passed through. */
    const failure = (error: GatewayError): string => this.#textOf([{ type: 'error', error }], rest.fail?.(error));
    try {
      outcome.firstOutputAt = Date.now();
      let opening = '';
      for (const batch of this.#held) opening += this.#textOf(batch.events, batch.wire, batch);
      this.#held = [];
      opening += this.#textOf(opened.opening, opened.openingWire);
      if (opened.openingChars !== undefined) {
        outcome.outputChars += opened.openingChars.output;
        outcome.reasoningChars += opened.openingChars.reasoning;
      }
      if (this.#committed) writer.write(opening);
      else await startSse(this.#res, encodeContext.requestId, opening);
      while (!this.#finished && !abort.aborted) {
        let text: string;
        try {
          const batch = await rest.next();
          if (batch === undefined && abort.aborted) break; // the cancelled provider ended its stream
          text = batch === undefined ? failure(streamEndedEarly()) : this.#textOf(batch.events, batch.wire, batch);
        } catch (error) {
          if (abort.aborted) break;
          const gatewayError = toGatewayError(error, logger, encodeContext.requestId);
          repeatedErrorLogOf(logger).warn(encodeContext.requestId, gatewayError, 'stream failed after its first event: ');
          text = failure(gatewayError);
        }
        const full = writer.write(text);
        if (full) await full;
      }
      const interrupted = this.#finished ? undefined : interruption();
      if (interrupted !== undefined) writer.write(failure(interrupted));
      writer.end();
    } finally {
      writer.flush(); // what was encoded before a throw still goes out
      // Releases the provider: its upstream request when we stop early, its connection for reuse otherwise.
      await rest.stop().catch(() => undefined);
    }
  }

  /** The timer fired: the window passed (commit, then keep-alives every `keepAliveMs`), or a keep-alive interval did. */
  tick(keepAliveMs: number): void {
    if (!this.#opening || this.#res.destroyed) return;
    if (!this.#committed) {
      this.#commit();
      this.#timer = setInterval(onTimer, keepAliveMs, this, keepAliveMs);
      this.#timer.unref();
      return;
    }
    if (!this.#wroteSinceTick) this.#res.write(keepAliveFrame(this.#setup.codec.protocol));
    this.#wroteSinceTick = false;
  }

  #commit(): void {
    this.#committed = true;
    const held = this.#held;
    this.#held = [];
    // The upstream's own `start` when it came (its id and input usage), else the gateway's.
    let opening = held.some((batch) => batch.events.some((event) => event.type === 'start')) ? '' : this.#gatewayOpening();
    for (const batch of held) opening += this.#textOf(batch.events, batch.wire, batch);
    void startSse(this.#res, this.#setup.encodeContext.requestId, opening);
  }

  /** A translated stream's opening events, from the caller's encoder ('' for a stream passed through, or before a call reads). */
  #gatewayOpening(): string {
    const reader = this.#reader;
    if (reader === undefined || reader.fail !== undefined) return '';
    return this.#encoderOf().encode({ type: 'start', id: '', model: this.#setup.encodeContext.request.model });
  }

  #write(text: string): void {
    if (text === '' || this.#res.destroyed) return;
    this.#wroteSinceTick = true;
    this.#res.write(text);
  }

  #encoderOf(): StreamEncoder {
    return (this.#encoder ??= this.#setup.codec.createStreamEncoder(this.#setup.encodeContext));
  }

  /**
   * Events on their way out: the watchers are told, the outcome counts them, and the text for the
   * caller is the upstream's frames (`wire`) when passed through, else the events encoded.
   */
  #textOf(events: readonly CanonicalStreamEvent[], wire: string | undefined, batch?: StreamBatch): string {
    const { outcome } = this;
    const { watch } = this.#setup;
    // Passed-through deltas come without events: the relay measured their text.
    if (batch?.outputChars !== undefined) {
      outcome.outputChars += batch.outputChars;
      outcome.reasoningChars += batch.reasoningChars ?? 0;
    }
    let text = '';
    for (const event of events) {
      watch?.(event);
      if (
        event.type === 'text-delta' ||
        event.type === 'reasoning-delta' ||
        event.type === 'tool-call-delta' ||
        event.type === 'refusal-delta'
      ) {
        outcome.outputChars += event.delta.length;
        if (event.type === 'reasoning-delta') outcome.reasoningChars += event.delta.length;
      } else if (event.type === 'start') {
        if (event.usage !== undefined) outcome.startUsage = event.usage;
      } else if (event.type === 'finish') {
        outcome.usage = event.usage;
        this.#finished = true;
      } else if (event.type === 'error') {
        outcome.errorCode = event.error.code;
        noteErrorCode(this.#res, event.error.code);
        this.#finished = true;
      }
      if (wire === undefined) text += this.#encoderOf().encode(event);
    }
    if (wire === undefined) return text;
    if (wire !== '') this.#relayed = true;
    return wire;
  }

  /**
   * The in-band error of a call that failed after the commit, before its output: continuing the
   * upstream's frames when they were passed through, else from the caller's encoder (opening events
   * first, when none went out: a protocol's error comes after them).
   */
  #openingFailureText(error: GatewayError): string {
    const relayFail = this.#relayed ? this.#reader?.fail : undefined;
    if (relayFail !== undefined) return relayFail(error);
    const encoder = this.#encoderOf();
    const events: CanonicalStreamEvent[] = [
      { type: 'start', id: '', model: this.#setup.encodeContext.request.model },
      { type: 'error', error },
    ];
    return events.map((event) => encoder.encode(event)).join('');
  }
}

function onTimer(responder: StreamResponder, keepAliveMs: number): void {
  responder.tick(keepAliveMs);
}
