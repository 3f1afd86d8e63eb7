import { streamEndedEarly, type CanonicalStreamEvent, type GatewayError, type Usage } from '../canonical/index.js';
import { noteErrorCode } from '../http/request-log-notes.js';
import { toGatewayError } from '../http/send-error.js';
import { SseWriter, startSse } from '../http/sse-writer.js';
import type { HttpResponse } from '../http/types.js';
import type { Logger } from '../logger.js';
import type { EncodeContext, InboundCodec, StreamEncoder } from '../protocols/codec.js';
import type { RequestAbort } from '../providers/transport/cancellation.js';
import type { StreamBatch } from '../routing/event-reader.js';
import type { OpenedStream } from '../routing/read-ahead.js';
import type { HeldStream } from './held-stream.js';
import { repeatedErrorLogOf } from './repeated-error-log.js';

/** How a stream that began ended. */
export interface StreamOutcome {
  /** The `finish` event's usage; undefined when the stream never finished. */
  usage: Usage | undefined;
  /** The in-band error's code when the stream failed after its first event. */
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

/**
 * Sends a stream that was read ahead to its first output event: headers and the opening events
 * in one write (after what `held` kept back; only the events when `held` already sent the headers),
 * then each event as it comes, with backpressure. A failure from here on is the
 * protocol's in-band error event; a client that leaves stops the provider. When the gateway
 * interrupted the request (`abort` fired and `interruption()` says why: a shutdown), the stream
 * ends with that error as its in-band error event.
 */
/** What sending a stream needs. */
export interface StreamToSend {
  readonly res: HttpResponse;
  readonly codec: InboundCodec;
  readonly opened: OpenedStream;
  readonly encodeContext: EncodeContext;
  readonly abort: RequestAbort;
  readonly logger: Logger;
  /** Why the gateway ended the request itself, if it did (a shutdown). */
  readonly interruption?: () => GatewayError | undefined;
  /** The start that held the headers for the failover window, when there was one. */
  readonly held?: HeldStream | undefined;
  /** Told of each event as it goes out (the route's watching stages). */
  readonly watch?: ((event: CanonicalStreamEvent) => void) | undefined;
}

export async function sendStream({ res, codec, opened, encodeContext, abort, logger, interruption, held, watch }: StreamToSend): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { usage: undefined, errorCode: undefined, startUsage: held?.startUsage, outputChars: 0, reasoningChars: 0, firstOutputAt: undefined };
  // Not needed when the provider passes its stream through; a committed stream goes on with the encoder it began with.
  let encoder: StreamEncoder | undefined = held?.encoder;
  const writer = new SseWriter(res);
  const { rest } = opened;
  let finished = opened.finished;
  /** Notes a batch's usage or error, and whether it ended the answer; returns its wire text. */
  const textOf = (events: readonly CanonicalStreamEvent[], wire: string | undefined, batch?: StreamBatch): string => {
    let text = '';
    // Passed-through deltas come without events: the relay measured their text.
    if (batch?.outputChars !== undefined) {
      outcome.outputChars += batch.outputChars;
      outcome.reasoningChars += batch.reasoningChars ?? 0;
    }
    for (const event of events) {
      watch?.(event);
      if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-call-delta' || event.type === 'refusal-delta') {
        outcome.outputChars += event.delta.length;
        if (event.type === 'reasoning-delta') outcome.reasoningChars += event.delta.length;
      } else if (event.type === 'start') {
        outcome.startUsage = event.usage;
      } else if (event.type === 'finish') {
        outcome.usage = event.usage;
        finished = true;
      } else if (event.type === 'error') {
        outcome.errorCode = event.error.code;
        noteErrorCode(res, event.error.code);
        finished = true;
      }
      if (wire === undefined) text += (encoder ??= codec.createStreamEncoder(encodeContext)).encode(event);
    }
    return wire ?? text;
  };
  /** The in-band error, in the caller's protocol: continuing the relayed frames when they were passed through. */
  const failure = (error: GatewayError): string => textOf([{ type: 'error', error }], rest.fail?.(error));
  try {
    outcome.firstOutputAt = Date.now();
    let opening = '';
    if (held !== undefined) for (const batch of held.takeHeld()) opening += textOf(batch.events, batch.wire, batch);
    opening += textOf(opened.opening, opened.openingWire);
    if (opened.openingChars !== undefined) {
      outcome.outputChars += opened.openingChars.output;
      outcome.reasoningChars += opened.openingChars.reasoning;
    }
    if (held?.committed() === true) writer.write(opening);
    else await startSse(res, encodeContext.requestId, opening);
    while (!finished && !abort.aborted) {
      let text: string;
      try {
        const batch = await rest.next();
        if (batch === undefined && abort.aborted) break; // the cancelled provider ended its stream
        text = batch === undefined ? failure(streamEndedEarly()) : textOf(batch.events, batch.wire, batch);
      } catch (error) {
        if (abort.aborted) break;
        const gatewayError = toGatewayError(error, logger, encodeContext.requestId);
        repeatedErrorLogOf(logger).warn(encodeContext.requestId, gatewayError, 'stream failed after its first event: ');
        text = failure(gatewayError);
      }
      const full = writer.write(text);
      if (full) await full;
    }
    const interrupted = finished ? undefined : interruption?.();
    if (interrupted !== undefined) writer.write(failure(interrupted));
    writer.end();
  } finally {
    writer.flush(); // what was encoded before a throw still goes out
    // Releases the provider: its upstream request when we stop early, its connection for reuse otherwise.
    await rest.stop().catch(() => undefined);
  }
  return outcome;
}
