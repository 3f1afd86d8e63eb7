import type { CanonicalStreamEvent, GatewayError, RelayBatch } from '../../canonical/index.js';
import { formatSse, type SseMessage } from '../../sse/format-sse.js';
import type { StreamRelay } from '../codec.js';
import { encodeChatErrorBody } from './errors.js';
import { createChatStreamDecoder } from './stream-decoder.js';

export interface ChatStreamRelayOptions {
  /** The model id the caller named: every chunk names it, as a translated answer's do. */
  answerModel: string;
  /** Whether the caller asked for usage (`stream_options.include_usage`): the upstream is always asked. */
  includeUsage: boolean;
}

const noEvents: readonly CanonicalStreamEvent[] = [];
const done = formatSse({ data: '[DONE]' });

/** Where a chunk holding only a text delta of the first choice has its text (the bulk of a stream). */
const textDelta = '"choices":[{"index":0,"delta":{"content":"';
/** What may follow that text in such a chunk: no finish, no usage, nothing else to read. */
const plainTail = /^"\},"logprobs":null,"finish_reason":null\}\](,"usage":null)?(,"obfuscation":"[A-Za-z0-9]*")?\}$/;
/** A `"model": "…"` member, whatever the spacing. */
const modelMember = /"model"\s*:\s*"(?:[^"\\]|\\.)*"/;

/**
 * Passes an upstream Chat Completions stream through to a Chat caller. Chunks that hold only a
 * text delta (the bulk of a stream) go out unread but for the model they name; every other chunk
 * is decoded — so the gateway still knows the start, the finish, the usage and any error, exactly
 * as on the translated path — and goes out as the upstream wrote it, naming the caller's model.
 * The upstream is always asked for usage: a caller who did not ask gets neither the usage chunk
 * nor the `usage: null` members. A failure after the stream began is `data: {"error": …}`.
 */
export function createChatStreamRelay(options: ChatStreamRelayOptions): StreamRelay {
  const { answerModel, includeUsage } = options;
  let parsed: Record<string, unknown> | undefined;
  const decoder = createChatStreamDecoder({ onChunk: (chunk) => void (parsed = chunk as Record<string, unknown>) });
  let started = false;
  /** The text before `"choices"` of the last text chunk, and the same naming the caller's model. */
  let upstreamHead: string | undefined;
  let callerHead = '';
  const answerModelMember = `"model":${JSON.stringify(answerModel)}`;

  const fail = (error: GatewayError): string => formatSse({ data: JSON.stringify(encodeChatErrorBody(error)) });
  const failureIn = (events: readonly CanonicalStreamEvent[]): string => {
    const failure = events.find((event) => event.type === 'error');
    return failure === undefined ? '' : fail(failure.error);
  };

  /** A text chunk's frame and its text's length, without parsing it; undefined when it is anything more. */
  const textFrame = (data: string): RelayBatch | undefined => {
    const at = data.indexOf(textDelta);
    if (at < 0) return undefined;
    const head = data.slice(0, at);
    if (head !== upstreamHead) {
      // The chunk's own members only (no nested object that could hold another `model`).
      if (head.indexOf('{', 1) >= 0 || !modelMember.test(head)) return undefined;
      upstreamHead = head;
      callerHead = head.replace(modelMember, answerModelMember);
    }
    const textStart = at + textDelta.length;
    let escaped = false;
    let end = textStart;
    for (; end < data.length; end += 1) {
      const code = data.charCodeAt(end);
      if (code === 34 /* " */) break;
      if (code === 92 /* \ */) {
        escaped = true;
        end += 1; // the escaped character
      }
    }
    let tail = data.slice(end);
    const plain = plainTail.exec(tail);
    if (plain === null) return undefined;
    if (!includeUsage && plain[1] !== undefined) tail = tail.replace(',"usage":null', '');
    const text = data.slice(textStart, end);
    const outputChars = escaped ? (JSON.parse(`"${text}"`) as string).length : text.length;
    return { wire: `data: ${callerHead}${data.slice(at, end)}${tail}\n\n`, events: noEvents, output: true, outputChars };
  };

  return {
    relay(message: SseMessage): RelayBatch {
      if (started && message.event === undefined) {
        const text = textFrame(message.data);
        if (text !== undefined) return text;
      }
      parsed = undefined;
      const events = decoder.decode(message);
      if (!started) started = events.some((event) => event.type === 'start');
      const chunk = parsed as Record<string, unknown> | undefined;
      if (events.some((event) => event.type === 'error')) return { wire: failureIn(events), events };
      // `[DONE]`, or a frame that is not a chunk the decoder read.
      if (chunk === undefined || typeof chunk !== 'object' || chunk === null)
        return { wire: message.data.trim() === '[DONE]' ? done : '', events };
      if (!includeUsage) {
        // The usage the gateway asked for on the caller's behalf is not the caller's to see.
        if (Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage != null) return { wire: '', events };
        if (chunk.usage === null) delete chunk.usage;
      }
      if ('model' in chunk) chunk.model = answerModel;
      return { wire: formatSse({ data: JSON.stringify(chunk) }), events };
    },

    end(): RelayBatch {
      const events = decoder.end();
      // An upstream that closed after its finish reason but without `[DONE]`: the caller still gets one.
      const finished = events.some((event) => event.type === 'finish');
      return { wire: finished ? done : failureIn(events), events };
    },

    fail,
  };
}
