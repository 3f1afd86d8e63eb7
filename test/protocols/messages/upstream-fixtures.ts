import { readFileSync } from 'node:fs';
import type { SseMessage } from '../../../src/sse/format-sse.js';

function read(name: string): string {
  return readFileSync(new URL(`../../fixtures/messages/${name}`, import.meta.url), 'utf8');
}

/** A recorded Anthropic answer body, `test/fixtures/messages/<name>.json`. */
export function upstreamJson(name: string): unknown {
  return JSON.parse(read(`${name}.json`)) as unknown;
}

/** A recorded Anthropic stream, one JSON event per line: as SSE messages named by their `type`. */
export function upstreamMessages(name: string): SseMessage[] {
  return read(`${name}.chunks.txt`)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: line }));
}

/** The same stream as raw SSE text (named events), for a mock upstream. */
export function upstreamSse(name: string): string {
  return upstreamMessages(name)
    .map((message) => `event: ${message.event}\ndata: ${message.data}\n\n`)
    .join('');
}
