import type { CanonicalStreamEvent, GatewayError, RelayBatch } from '../../canonical/index.js';
import { formatSse, type SseMessage } from '../../sse/format-sse.js';
import type { StreamRelay } from '../codec.js';
import { eventTypeOf, looksLikeEvent, renameModel, stringMemberLength } from '../relay-frames.js';
import { encodeResponsesErrorCode } from './errors.js';
import { createResponsesStreamDecoder } from './stream-decoder.js';
import type { UpstreamStreamEvent } from './upstream-schema.js';
import { encodeResponsesId } from './wire-id.js';

export interface ResponsesStreamRelayOptions {
  /** The model id the caller named: every Response snapshot names it, as a translated answer does. */
  answerModel: string;
  /** The id sent upstream (for `start` when the upstream names none). */
  upstreamModel: string;
  /** The gateway's request id and clock, for a failure before the upstream sent any snapshot. */
  requestId: string;
  created: number;
}

const noEvents: readonly CanonicalStreamEvent[] = [];

/** The event's text with its Response naming `to` (re-serialised when the text cannot be edited in place). */
function renameResponseModel(data: string, event: UpstreamStreamEvent, from: string, to: string): string {
  return renameModel(data, from, to) ?? JSON.stringify({ ...event, response: { ...event.response, model: to } });
}

/**
 * Passes an OpenAI Responses stream through to a Responses caller. Content deltas (`*.delta`, the
 * bulk of a stream) go out unread when they have the shape of one event; every other event is decoded, so the gateway still knows when
 * output began, the usage, and any error, exactly as on the translated path. Response snapshots
 * name the caller's model. A failure after the stream began becomes `response.failed`, numbered
 * after the upstream's last event and carrying the items the upstream had sent.
 */
export function createResponsesStreamRelay(options: ResponsesStreamRelayOptions): StreamRelay {
  let nextSequence = 0;
  let parsed: UpstreamStreamEvent | undefined;
  /** The last Response snapshot, the base of a `response.failed` we write. */
  let snapshot: Record<string, unknown> | undefined;
  /** Output items by index: as added, replaced when done. */
  const items: { item: Record<string, unknown>; done: boolean }[] = [];
  const decoder = createResponsesStreamDecoder({ model: options.upstreamModel, onEvent: (event) => void (parsed = event) });

  const note = (event: UpstreamStreamEvent): void => {
    const sequence = (event as { sequence_number?: unknown }).sequence_number;
    nextSequence = typeof sequence === 'number' ? sequence + 1 : nextSequence + 1;
    if (event.response != null) snapshot = event.response;
    if (event.item != null && typeof event.output_index === 'number') {
      items[event.output_index] = { item: event.item, done: event.type === 'response.output_item.done' };
    }
  };

  const fail = (error: GatewayError): string => {
    const response: Record<string, unknown> = {
      ...(snapshot ?? { id: encodeResponsesId(options.requestId), object: 'response', created_at: options.created }),
      model: options.answerModel,
      status: 'failed',
      error: { code: encodeResponsesErrorCode(error), message: error.message },
      incomplete_details: null,
      output: items
        .filter((entry) => entry !== undefined)
        .map((entry) => (entry.done ? entry.item : { ...entry.item, status: 'incomplete' })),
      usage: null,
    };
    return formatSse({
      event: 'response.failed',
      data: JSON.stringify({ type: 'response.failed', sequence_number: nextSequence++, response }),
    });
  };

  return {
    relay(message: SseMessage): RelayBatch {
      const type = eventTypeOf(message);
      if (type?.endsWith('.delta') === true && looksLikeEvent(message.data, type)) {
        nextSequence++;
        const chars = stringMemberLength(message.data, 'delta');
        const wire = formatSse({ event: type, data: message.data });
        // Reasoning text and summaries count as reasoning; text, refusals and tool arguments as output only.
        return type.includes('reasoning')
          ? { wire, events: noEvents, output: true, outputChars: chars, reasoningChars: chars }
          : { wire, events: noEvents, output: true, outputChars: chars };
      }
      parsed = undefined;
      const events = decoder.decode(message);
      const event = parsed as UpstreamStreamEvent | undefined;
      // Not an event (`[DONE]`, a keep-alive): a Responses answer has none, as on the translated path.
      if (event === undefined) return { wire: '', events };
      note(event);
      const model = event.response?.model;
      const data =
        typeof model === 'string' && model !== options.answerModel
          ? renameResponseModel(message.data, event, model, options.answerModel)
          : message.data;
      return { wire: formatSse({ event: message.event ?? event.type, data }), events };
    },

    end(): RelayBatch {
      const events = decoder.end();
      const failure = events.find((event) => event.type === 'error');
      return { wire: failure === undefined ? '' : fail(failure.error), events };
    },

    fail,
  };
}
