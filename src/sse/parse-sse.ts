import { createParser } from 'eventsource-parser';
import type { SseMessage } from './format-sse.js';

/**
 * Bytes → SSE messages, incrementally. Chunks may split anywhere, even inside a multi-byte
 * UTF-8 character: the decoder keeps the partial character for the next chunk.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseMessage> {
  const pending: SseMessage[] = [];
  const parser = createParser({
    onEvent: (event) => pending.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }),
  });
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0) yield pending.shift() as SseMessage;
  }
  parser.feed(decoder.decode());
  // A final event without its blank line still counts: some servers close right after it.
  parser.feed('\n\n');
  while (pending.length > 0) yield pending.shift() as SseMessage;
}
