import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSse, type SseMessage } from '../../../src/sse/format-sse.js';
import { RequestAbort } from '../../../src/providers/transport/cancellation.js';
import { SseAnswer } from '../../../src/providers/transport/sse-answer.js';
import { UpstreamRedactor } from '../../../src/providers/transport/upstream-redactor.js';

/** Stands in for undici's controller when the test plays undici's side itself. */
class Controller implements Dispatcher.DispatchController {
  paused = false;
  aborted = false;
  reason: Error | null = null;
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  abort(reason: Error) {
    this.aborted = true;
    this.reason = reason;
  }
}

const redactor = new UpstreamRedactor('test', new URL('http://127.0.0.1:1'), {}, undefined);
const mapError = (error: unknown) => new Error(`mapped: ${(error as Error).message}`);

function started(status = 200) {
  const answer = new SseAnswer(new RequestAbort(), { drainMs: 100, maxEventBytes: 1_000_000, redactor }, mapError);
  const controller = new Controller();
  answer.onRequestStart(controller);
  answer.onResponseStart(controller, status, { 'content-type': 'text/event-stream' });
  return { answer, controller };
}

function chunked(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

async function read(answer: SseAnswer): Promise<SseMessage[]> {
  const all: SseMessage[] = [];
  for await (const message of answer) all.push(message);
  return all;
}

/** The messages an answer gives for `text` arriving in `size`-byte reads. */
function parse(text: string, size: number): Promise<SseMessage[]> {
  const { answer, controller } = started();
  for (const chunk of chunked(text, size)) answer.onResponseData(controller, chunk);
  answer.onResponseEnd();
  return read(answer);
}

const messages: SseMessage[] = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { data: '{"text":"héllo wörld — 你好 👋"}' },
  { data: '[DONE]' },
];
const wire = messages.map(formatSse).join('');

describe('SseAnswer: parsing', () => {
  it('should parse the same messages whatever the read size, even inside multi-byte characters', async () => {
    for (const size of [1, 2, 3, 5, 7, 13, 10_000]) expect(await parse(wire, size)).toEqual(messages);
  });

  it('should skip comments and keep-alives', async () => {
    expect(await parse(': keep-alive\n\ndata: {"a":1}\n\n: ping\n\n', 4)).toEqual([{ data: '{"a":1}' }]);
  });

  it('should join multi-line data and handle CRLF line ends', async () => {
    expect(await parse('event: x\r\ndata: line1\r\ndata: line2\r\n\r\n', 3)).toEqual([{ event: 'x', data: 'line1\nline2' }]);
  });

  it('should drop a byte order mark the answer begins with, even one split across reads, and keep one elsewhere', async () => {
    const marked = `\uFEFF${wire}`;
    for (const size of [1, 2, 3, 10_000]) expect(await parse(marked, size)).toEqual(messages);
    expect(await parse('data: \uFEFFx\n\n', 2)).toEqual([{ data: '\uFEFFx' }]);
  });

  it('should end a last event cut inside a multi-byte character with a replacement character', async () => {
    const cut = Buffer.from('data: ok\n\ndata: h\u00e9');
    const { answer, controller } = started();
    answer.onResponseData(controller, cut.subarray(0, cut.length - 1));
    answer.onResponseEnd();
    expect(await read(answer)).toEqual([{ data: 'ok' }, { data: 'h\uFFFD' }]);
  });

  it('should keep a last event that ends without a blank line', async () => {
    expect(await parse('data: {"a":1}\n\ndata: {"b":2}\n', 100)).toEqual([{ data: '{"a":1}' }, { data: '{"b":2}' }]);
  });
});

describe('SseAnswer: flow', () => {
  it('should pause the upstream while many messages wait unread, and resume when the reader catches up', async () => {
    const { answer, controller } = started();
    const many = Array.from({ length: 200 }, (_, index) => ({ data: String(index) }));
    answer.onResponseData(controller, Buffer.from(many.map(formatSse).join('')));
    expect(controller.paused).toBe(true);
    const iterator = answer[Symbol.asyncIterator]();
    for (let index = 0; index < 200; index++) expect((await iterator.next()).value).toEqual({ data: String(index) });
    expect(controller.paused).toBe(false);
    answer.onResponseEnd();
    expect((await iterator.next()).done).toBe(true);
  });

  it('should hand a reader the messages that arrived, then the mapped error when the body breaks off', async () => {
    const { answer, controller } = started();
    answer.onResponseData(controller, Buffer.from('data: one\n\n'));
    answer.onResponseError(controller, new Error('socket hang up'));
    const iterator = answer[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ data: 'one' });
    await expect(iterator.next()).rejects.toThrow('mapped: socket hang up');
  });

  it('should give an error status its whole body instead of messages', async () => {
    const { answer, controller } = started(429);
    answer.onResponseData(controller, Buffer.from('{"error":'));
    answer.onResponseData(controller, Buffer.from('"slow down"}'));
    answer.onResponseEnd();
    expect(await answer.head).toEqual({
      status: 429,
      headers: { 'content-type': 'text/event-stream' },
      errorText: '{"error":"slow down"}',
    });
  });

  it('should abort the request when the reader stops before the answer is complete', async () => {
    const { answer, controller } = started();
    answer.onResponseData(controller, Buffer.from('data: one\n\ndata: two\n\n'));
    for await (const _message of answer) break;
    expect(controller.aborted).toBe(true);
  });

  it('should drain, not abort, when the reader stops after complete(), and abort a drain that runs too long', async () => {
    const { answer, controller } = started();
    answer.onResponseData(controller, Buffer.from('data: [DONE]\n\n'));
    for await (const _message of answer) {
      answer.complete();
      break;
    }
    answer.onResponseData(controller, Buffer.from(': trailing\n\n'));
    expect(controller.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150)); // drainMs is 100
    expect(controller.aborted).toBe(true);
  });
});

describe('SseAnswer through undici', () => {
  let server: Server | undefined;
  let pool: Pool | undefined;
  afterEach(async () => {
    await pool?.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('should deliver a burst of thousands of events to a slow reader, in order and complete', async () => {
    const count = 3000;
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < count; index++) res.write(formatSse({ data: JSON.stringify({ index, pad: 'x'.repeat(64) }) }));
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const answer = new SseAnswer(new RequestAbort(), { drainMs: 100, maxEventBytes: 1_000_000, redactor }, mapError);
    pool.dispatch({ method: 'POST', path: '/', body: '{}' }, answer);
    expect((await answer.head).status).toBe(200);
    let expected = 0;
    for await (const message of answer) {
      expect((JSON.parse(message.data) as { index: number }).index).toBe(expected++);
      if (expected % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(expected).toBe(count);
  });

  it('should reject the head with the mapped error when the caller leaves before the answer starts', async () => {
    server = createServer(() => undefined); // never answers
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const abort = new RequestAbort();
    const answer = new SseAnswer(abort, { drainMs: 100, maxEventBytes: 1_000_000, redactor }, mapError);
    pool.dispatch({ method: 'POST', path: '/', body: '{}' }, answer);
    setTimeout(() => abort.abort(), 30);
    await expect(answer.head).rejects.toThrow(/^mapped: /);
  });

  describe('nextBatch', () => {
    it('should hand over every message parsed so far at once, then undefined at the end', async () => {
      const { answer, controller } = started();
      const text = messages.map(formatSse).join('');
      answer.onResponseData(controller, Buffer.from(text));
      expect(await answer.nextBatch()).toEqual(messages);
      const waiting = answer.nextBatch();
      answer.onResponseData(controller, Buffer.from(formatSse({ data: 'late' })));
      expect(await waiting).toEqual([{ data: 'late' }]);
      answer.onResponseEnd();
      expect(await answer.nextBatch()).toBeUndefined();
    });

    it('should reject a waiting reader when the answer breaks off', async () => {
      const { answer } = started();
      const waiting = answer.nextBatch();
      answer.onResponseError(undefined, new Error('socket hang up'));
      await expect(waiting).rejects.toThrow('mapped: socket hang up');
    });

    it('should resume a paused upstream once the batch is taken', async () => {
      const { answer, controller } = started();
      const many = Array.from({ length: 100 }, (_, index) => formatSse({ data: String(index) })).join('');
      answer.onResponseData(controller, Buffer.from(many));
      expect(controller.paused).toBe(true);
      expect((await answer.nextBatch())?.length).toBe(100);
      expect(controller.paused).toBe(false);
    });
  });
});
