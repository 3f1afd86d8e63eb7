import type { CanonicalStreamEvent, GatewayError, RelayBatch } from '../../canonical/index.js';
import { formatSse, type SseMessage } from '../../sse/format-sse.js';
import type { StreamRelay } from '../codec.js';
import { eventTypeOf, looksLikeEvent, stringMemberLength, renameModel } from '../relay-frames.js';
import { renderMessagesErrorBody } from './errors.js';
import { createMessagesStreamDecoder } from './stream-decoder.js';

export interface MessagesStreamRelayOptions {
  /** The model id the caller named: `message_start` names it, as a translated answer does. */
  answerModel: string;
  /** The gateway's request id, for the error events the gateway writes. */
  requestId: string;
}

const noEvents: readonly CanonicalStreamEvent[] = [];
const messageStop = formatSse({ event: 'message_stop', data: '{"type":"message_stop"}' });

/** `message_start`'s text with its message naming `to` (re-serialised when the text cannot be edited in place). */
function renameMessageModel(data: string, event: Record<string, unknown>, from: string, to: string): string {
  return renameModel(data, from, to) ?? JSON.stringify({ ...event, message: { ...(event.message as object), model: to } });
}

/**
 * Passes an Anthropic Messages stream through to a Messages caller. `content_block_delta` events
 * (the bulk of a stream) go out unread when they have the shape of one event; every other event is decoded, so the gateway still knows
 * when output began, the usage and any error, exactly as on the translated path. `message_start`
 * names the caller's model; `ping`s and events the gateway does not know pass on. A failure after
 * the stream began is `event: error`, as Anthropic writes it.
 */
/** A content delta passed on unread, with the length of its text (thinking counted apart; a signature is no output). */
function deltaFrame(data: string): RelayBatch {
  const wire = formatSse({ event: 'content_block_delta', data });
  const thinking = stringMemberLength(data, 'thinking');
  if (thinking > 0) return { wire, events: noEvents, output: true, outputChars: thinking, reasoningChars: thinking };
  return { wire, events: noEvents, output: true, outputChars: stringMemberLength(data, 'text') + stringMemberLength(data, 'partial_json') };
}

export function createMessagesStreamRelay(options: MessagesStreamRelayOptions): StreamRelay {
  let parsed: Record<string, unknown> | undefined;
  const decoder = createMessagesStreamDecoder({ onEvent: (event) => void (parsed = event) });

  const fail = (error: GatewayError): string =>
    formatSse({ event: 'error', data: JSON.stringify(renderMessagesErrorBody(error, options.requestId)) });
  /** The frame for events that are not the upstream's to pass on: the in-band error they carry, if any. */
  const failureIn = (events: readonly CanonicalStreamEvent[]): string => {
    const failure = events.find((event) => event.type === 'error');
    return failure === undefined ? '' : fail(failure.error);
  };

  return {
    relay(message: SseMessage): RelayBatch {
      const type = eventTypeOf(message);
      if (type === 'content_block_delta' && looksLikeEvent(message.data, type)) return deltaFrame(message.data);
      parsed = undefined;
      const events = decoder.decode(message);
      const event = parsed as Record<string, unknown> | undefined;
      // Not a JSON event: the decoder's verdict (an invalid-stream error) in Anthropic's shape.
      if (event === undefined) return { wire: failureIn(events), events };
      const model = (event.message as { model?: unknown } | undefined)?.model;
      const rename = event.type === 'message_start' && typeof model === 'string' && model !== options.answerModel;
      const data = rename ? renameMessageModel(message.data, event, model, options.answerModel) : message.data;
      return { wire: formatSse({ event: message.event ?? String(event.type), data }), events };
    },

    end(): RelayBatch {
      const events = decoder.end();
      // An upstream that closed after its `message_delta` but without `message_stop`: the caller still gets one.
      const finished = events.some((event) => event.type === 'finish');
      return { wire: finished ? messageStop : failureIn(events), events };
    },

    fail,
  };
}
