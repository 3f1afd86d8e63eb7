import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { createChatStreamDecoder } from '../../../src/protocols/chat-completions/index.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';

const folder = join(import.meta.dirname, '../../fixtures/chat-completions');

/** A `.chunks.txt` fixture (one JSON chunk or `[DONE]` per line) as SSE messages. */
export function readChunkMessages(name: string): SseMessage[] {
  return readFileSync(join(folder, `${name}.chunks.txt`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((data) => ({ data }));
}

/** The same fixture as SSE text, as an upstream sends it. */
export function readChunkSse(name: string): string {
  return readChunkMessages(name)
    .map((message) => `data: ${message.data}\n\n`)
    .join('');
}

export function readJsonFixture(name: string): unknown {
  return JSON.parse(readFileSync(join(folder, `${name}.json`), 'utf8'));
}

/** Every event a fresh decoder makes of `messages`, `end()` included. */
export function decodeMessages(messages: readonly SseMessage[]): CanonicalStreamEvent[] {
  const decoder = createChatStreamDecoder();
  return [...messages.flatMap((message) => decoder.decode(message)), ...decoder.end()];
}
