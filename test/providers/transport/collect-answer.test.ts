import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { collectAnswer } from '../../../src/providers/transport/collect-answer.js';
import { RequestAbort } from '../../../src/providers/transport/cancellation.js';

let server: Server | undefined;
let pool: Pool | undefined;
let received = 0;

async function serve(answer: (res: ServerResponse) => void): Promise<Pool> {
  received = 0;
  server = createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return pool;
}

afterEach(async () => {
  await pool?.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  pool = undefined;
  server = undefined;
});

const post = { method: 'POST' as const, path: '/answer', headers: { 'content-type': 'application/json' }, body: '{}' };

describe('collectAnswer', () => {
  it('should join an answer sent in pieces, a multi-byte character split between two of them', async () => {
    const text = JSON.stringify({ reply: 'naïve café — 日本語 ✓'.repeat(50) });
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from('日')) + 1; // inside the three bytes of 日
    const dispatcher = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.write(bytes.subarray(0, split));
      setTimeout(() => {
        res.write(bytes.subarray(split, split + 7));
        res.end(bytes.subarray(split + 7));
      }, 10);
    });
    const answer = await collectAnswer(dispatcher, post, new RequestAbort(), 1_000_000);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(answer.text).toBe(text);
  });

  it('should never send a request whose caller already left', async () => {
    const dispatcher = await serve((res) => res.end('{}'));
    const abort = new RequestAbort();
    abort.abort();
    await expect(collectAnswer(dispatcher, post, abort, 1_000_000)).rejects.toBeInstanceOf(undiciErrors.RequestAbortedError);
    await expect(collectAnswer(dispatcher, post, AbortSignal.abort(), 1_000_000)).rejects.toBeInstanceOf(undiciErrors.RequestAbortedError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toBe(0);
  });

  it('should reject with an abort when the caller leaves while the upstream is still answering', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":'); // and never ends
    });
    for (const make of [() => new RequestAbort(), () => new AbortController()] as const) {
      const cancel = make();
      const signal = cancel instanceof RequestAbort ? cancel : cancel.signal;
      const answer = collectAnswer(dispatcher, post, signal, 1_000_000);
      setTimeout(() => cancel.abort(), 30);
      await expect(answer).rejects.toBeInstanceOf(undiciErrors.RequestAbortedError);
    }
    expect(received).toBe(2);
  });

  it('should keep an error status whose body breaks off, with the text that arrived', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(529, { 'content-type': 'application/json', 'content-length': '100', 'retry-after': '3' });
      res.write('{"error":');
      setTimeout(() => res.destroy(), 10);
    });
    const answer = await collectAnswer(dispatcher, post, new RequestAbort(), 1_000_000);
    expect(answer).toMatchObject({ status: 529, text: '{"error":' });
    expect(answer.headers['retry-after']).toBe('3');
  });

  it('should reject a success whose body breaks off', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"ok":');
      setTimeout(() => res.destroy(), 10);
    });
    await expect(collectAnswer(dispatcher, post, new RequestAbort(), 1_000_000)).rejects.toBeInstanceOf(Error);
  });

  it('should reject, with a 502, a success larger than its limit, and close the connection on the rest', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'y'.repeat(200_000) }));
    });
    await expect(collectAnswer(dispatcher, post, new RequestAbort(), 50_000)).rejects.toMatchObject({
      status: 502,
      code: 'UPSTREAM_ANSWER_TOO_LARGE',
    });
  });

  it('should keep only the start of a huge error body, with its status', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`broken ${'z'.repeat(2_000_000)}`);
    });
    const answer = await collectAnswer(dispatcher, post, new RequestAbort(), 100_000_000);
    expect(answer.status).toBe(500);
    expect(answer.text.startsWith('broken ')).toBe(true);
    expect(answer.text.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('should reject, not hang, when the body cannot be made into text (a string longer than V8 allows)', async () => {
    const dispatcher = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      setTimeout(() => res.end('1}'), 10);
    });
    const concat = Buffer.concat;
    Buffer.concat = () => {
      throw new RangeError('Cannot create a string longer than 0x1fffffe8 characters');
    };
    try {
      await expect(collectAnswer(dispatcher, post, new RequestAbort(), 1_000_000)).rejects.toBeInstanceOf(RangeError);
    } finally {
      Buffer.concat = concat;
    }
  });
});
