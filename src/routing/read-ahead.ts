import { type CanonicalStreamEvent, streamEndedEarly } from '../canonical/index.js';
import type { EventReader, StreamBatch } from './event-reader.js';

/** A stream read up to its first output event (see `isOutput`): nothing has reached the client yet. */
export interface OpenedStream {
  /** The `start` events, the first output event, and whatever else came in the same batch. */
  readonly opening: readonly CanonicalStreamEvent[];
  /** For a stream passed through: the frames `opening` came in, sent instead of encoding it. */
  readonly openingWire?: string;
  /** For a stream passed through: the text characters of the deltas `openingWire` carries unread, and their reasoning part. */
  readonly openingChars?: { readonly output: number; readonly reasoning: number };
  /** Whether `opening` already ends the answer (its `finish` or an in-band error): then `rest` has nothing to give. */
  readonly finished: boolean;
  /** The batches after `opening`. Whoever holds it calls `stop()` when leaving early. */
  readonly rest: EventReader;
  /** The deployment that answered, when the "call" stage names it (a router); default: the route's model's. */
  readonly deployment?: string;
}

const ends = (event: CanonicalStreamEvent) => event.type === 'finish' || event.type === 'error';

/**
 * Whether an event is output: something the caller would see. The opening of a block (and its
 * close, or an empty delta, before anything was in it) is not: Anthropic opens a text block
 * before its first token, a Chat provider only with it, and a failure between the two must be
 * the same retryable status on every upstream.
 */
function isOutput(event: CanonicalStreamEvent): boolean {
  switch (event.type) {
    case 'start':
    case 'text-start':
    case 'text-end':
    case 'refusal-start':
    case 'refusal-end':
      return false;
    case 'reasoning-start':
      return event.redactedData !== undefined;
    case 'reasoning-end':
      return event.signature !== undefined;
    case 'text-delta':
    case 'refusal-delta':
    case 'reasoning-delta':
      return event.delta !== '';
    default:
      return true;
  }
}

function opened(
  opening: CanonicalStreamEvent[],
  openingWire: string | undefined,
  rest: EventReader,
  openingChars: OpenedStream['openingChars'],
): OpenedStream {
  const finished = opening.some(ends);
  if (openingWire === undefined) return { opening, finished, rest };
  return openingChars === undefined ? { opening, openingWire, finished, rest } : { opening, openingWire, openingChars, finished, rest };
}

/**
 * What the endpoint tells the "call" stage while a stream is being opened (`CallStage.stream`'s
 * third argument), and what the read-ahead tells it back.
 */
export interface StreamCallControl {
  /**
   * True once the answer's headers went to the client (the failover window passed and keep-alives
   * began): from then on a failure can no longer be retried elsewhere with a real status.
   */
  committed(): boolean;
  /** Told when an attempt starts reading its stream, before its first read: whatever an earlier attempt handed over is void. */
  reading?(reader: EventReader): void;
  /**
   * Given each batch read before the first output event (the `start`, block openings, a relayed
   * `ping`) instead of keeping it in `opening`: held with the headers, written at once after them.
   */
  beforeOutput?(batch: StreamBatch): void;
}

/**
 * Reads a provider's stream ahead to its first output event. A failure before it — a thrown
 * error, an `error` event, or an end without output — is thrown as a GatewayError, so the caller
 * still gets a real HTTP status and routing can retry or fall back; the provider is released.
 * Failures after it are the stream sender's to turn into the protocol's in-band error. With a
 * `control` that takes them, the batches before the first output go to it as they are read.
 */
export async function readAhead(rest: EventReader, control?: StreamCallControl): Promise<OpenedStream> {
  try {
    control?.reading?.(rest);
    const handOver = control?.beforeOutput?.bind(control);
    const opening: CanonicalStreamEvent[] = [];
    let openingWire: string | undefined;
    let openingChars: { output: number; reasoning: number } | undefined;
    for (;;) {
      const batch = await rest.next();
      if (batch === undefined) throw streamEndedEarly();
      const { events } = batch;
      let output = batch.output === true; // output passed through unread (a relayed content delta)
      for (const event of events) {
        if (event.type === 'error') throw event.error;
        if (isOutput(event)) {
          output = true;
          break;
        }
      }
      if (!output && handOver !== undefined) {
        handOver(batch);
        continue;
      }
      // The first output event: the rest of its batch goes out with it.
      for (const event of events) opening.push(event);
      if (batch.wire !== undefined) openingWire = (openingWire ?? '') + batch.wire;
      if (batch.outputChars !== undefined) {
        openingChars ??= { output: 0, reasoning: 0 };
        openingChars.output += batch.outputChars;
        openingChars.reasoning += batch.reasoningChars ?? 0;
      }
      if (output) return opened(opening, openingWire, rest, openingChars);
    }
  } catch (error) {
    // Releases the provider (and its upstream request).
    await rest.stop().catch(() => undefined);
    throw error;
  }
}
