import { readFileSync } from 'node:fs';
import type { SseMessage } from '../../../src/sse/format-sse.js';

function read(name: string): string {
  return readFileSync(new URL(`../../fixtures/responses/${name}`, import.meta.url), 'utf8');
}

/** A JSON fixture, `test/fixtures/responses/<name>.json` (upstream bodies and client requests). */
export function responsesJson(name: string): Record<string, unknown> {
  return JSON.parse(read(`${name}.json`)) as Record<string, unknown>;
}

/** A recorded Responses stream, one JSON event per line: as SSE messages named by their `type`. */
export function responsesMessages(name: string): SseMessage[] {
  return read(`${name}.chunks.txt`)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: line }));
}

/** The same stream as raw SSE text, for a mock upstream. */
export function responsesSse(name: string): string {
  return responsesMessages(name)
    .map((message) => `event: ${message.event}\ndata: ${message.data}\n\n`)
    .join('');
}
