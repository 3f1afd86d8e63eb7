import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createChatStreamDecoder } from '../../../src/protocols/chat-completions/index.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';

/** Every event a fresh decoder makes of `messages`, `end()` included. */
export function decodeMessages(messages: readonly SseMessage[]): CanonicalStreamEvent[] {
  const decoder = createChatStreamDecoder();
  return [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
}
