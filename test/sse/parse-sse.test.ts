import { describe, expect, it } from 'vitest';
import type { SseMessage } from '../../src/sse/format-sse.js';
import { formatSse } from '../../src/sse/format-sse.js';
import { parseSse } from '../../src/sse/parse-sse.js';

async function* chunksOf(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(source: AsyncIterable<SseMessage>) {
  const all: SseMessage[] = [];
  for await (const message of source) all.push(message);
  return all;
}

const messages: SseMessage[] = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { data: '{"text":"héllo wörld — 你好 👋"}' },
  { data: '[DONE]' },
];
const wire = new TextEncoder().encode(messages.map(formatSse).join(''));

describe('parseSse', () => {
  it('should parse what formatSse writes', async () => {
    expect(await collect(parseSse(chunksOf(wire, wire.length)))).toEqual(messages);
  });

  it('should parse the same messages whatever the chunk size, even inside multi-byte characters', async () => {
    for (const size of [1, 2, 3, 5, 7, 13]) {
      expect(await collect(parseSse(chunksOf(wire, size)))).toEqual(messages);
    }
  });

  it('should skip comments and keep-alives', async () => {
    const text = ': keep-alive\n\ndata: {"a":1}\n\n: ping\n\n';
    expect(await collect(parseSse(chunksOf(new TextEncoder().encode(text), 4)))).toEqual([{ data: '{"a":1}' }]);
  });

  it('should join multi-line data and handle CRLF line ends', async () => {
    const text = 'event: x\r\ndata: line1\r\ndata: line2\r\n\r\n';
    expect(await collect(parseSse(chunksOf(new TextEncoder().encode(text), 3)))).toEqual([{ event: 'x', data: 'line1\nline2' }]);
  });

  it('should keep a last event that ends without a blank line', async () => {
    const text = 'data: {"a":1}\n\ndata: {"b":2}\n';
    expect(await collect(parseSse(chunksOf(new TextEncoder().encode(text), 100)))).toEqual([{ data: '{"a":1}' }, { data: '{"b":2}' }]);
  });
});
