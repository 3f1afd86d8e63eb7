// The one way tests read recorded fixtures: `test/fixtures/<protocol>/<case>.json` for bodies and
// `test/fixtures/<protocol>/<case>.chunks.txt` for streams (one JSON event or chunk per line; the
// loader frames SSE as that protocol's upstream sends it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SseMessage } from '../../src/sse/format-sse.js';

export type FixtureProtocol = 'chat-completions' | 'responses' | 'messages' | 'gemini';

const root = join(import.meta.dirname, '../fixtures');
const read = (protocol: FixtureProtocol, file: string) => readFileSync(join(root, protocol, file), 'utf8');

/** `test/fixtures/<protocol>/<name>.json`, parsed. */
export function jsonFixture(protocol: FixtureProtocol, name: string): Record<string, unknown> {
  return JSON.parse(read(protocol, `${name}.json`)) as Record<string, unknown>;
}

/** The lines of `test/fixtures/<protocol>/<name>.chunks.txt` (blank lines dropped). */
export function chunkLinesFixture(protocol: FixtureProtocol, name: string): string[] {
  return read(protocol, `${name}.chunks.txt`)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** A `.chunks.txt` fixture as SSE messages: Responses and Messages events are named by their `type`. */
export function sseMessagesFixture(protocol: FixtureProtocol, name: string): SseMessage[] {
  const named = protocol === 'responses' || protocol === 'messages';
  return chunkLinesFixture(protocol, name).map((data) => (named ? { event: (JSON.parse(data) as { type: string }).type, data } : { data }));
}

/** A `.chunks.txt` fixture as the SSE text its upstream sends (Gemini ends each frame with `\r\n\r\n`). */
export function sseFixture(protocol: FixtureProtocol, name: string): string {
  const end = protocol === 'gemini' ? '\r\n\r\n' : '\n\n';
  return sseMessagesFixture(protocol, name)
    .map((message) => `${message.event === undefined ? '' : `event: ${message.event}\n`}data: ${message.data}${end}`)
    .join('');
}
