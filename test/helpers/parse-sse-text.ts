import { createParser } from 'eventsource-parser';
import type { SseMessage } from '../../src/sse/format-sse.js';

/** SSE text as its messages (event name when the frame has one, and data), read by the library the gateway reads upstreams with. */
export function parseSseText(text: string): SseMessage[] {
  const messages: SseMessage[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => messages.push(event === undefined ? { data } : { event, data }) });
  parser.feed(text);
  return messages;
}
