import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { createJsonBodyReader } from '../../src/http/read-json-body.js';

const LIMIT = 1024;
let server: Server;
let port: number;

/** A server that answers what the reader made of the body: the value, or the error's code and status. */
beforeAll(async () => {
  const read = createJsonBodyReader(LIMIT);
  server = createServer((req, res) => {
    read(req).then(
      (body) => res.end(JSON.stringify({ body })),
      (error: unknown) => {
        const failure = GatewayError.isInstance(error) ? { code: error.code, status: error.status } : { code: 'NOT_A_GATEWAY_ERROR' };
        res.end(JSON.stringify({ failure }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function post(
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<{ body?: unknown; failure?: { code: string; status?: number } }> {
  return new Promise((resolve, reject) => {
    const outbound = httpRequest(
      { port, host: '127.0.0.1', method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve(JSON.parse(text)));
      },
    );
    outbound.on('error', reject);
    outbound.end(body);
  });
}

describe('createJsonBodyReader', () => {
  const value = { model: 'mock', messages: [{ role: 'user', content: 'héllo ✓' }] };
  const json = JSON.stringify(value);

  it('should parse a UTF-8 JSON body, with or without a byte order mark', async () => {
    expect((await post(json)).body).toEqual(value);
    expect((await post(`\uFEFF${json}`)).body).toEqual(value);
    expect((await post(json, { 'content-type': 'application/json; charset=UTF-8' })).body).toEqual(value);
  });

  it('should undo gzip, deflate and br content encodings', async () => {
    expect((await post(gzipSync(json), { 'content-encoding': 'gzip' })).body).toEqual(value);
    expect((await post(deflateSync(json), { 'content-encoding': 'deflate' })).body).toEqual(value);
    expect((await post(brotliCompressSync(json), { 'content-encoding': 'br' })).body).toEqual(value);
  });

  it('should refuse an unknown encoding or a non-UTF-8 charset with 415', async () => {
    expect((await post(json, { 'content-encoding': 'zstd' })).failure).toEqual({ code: 'UNSUPPORTED_ENCODING', status: 415 });
    expect((await post(json, { 'content-type': 'application/json; charset=latin1' })).failure).toEqual({
      code: 'UNSUPPORTED_ENCODING',
      status: 415,
    });
  });

  it('should refuse a body over the limit with 413, declared or streamed, and count inflated bytes', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(LIMIT) });
    expect((await post(big)).failure).toEqual({ code: 'REQUEST_TOO_LARGE', status: 413 });
    expect((await post(big, { 'transfer-encoding': 'chunked' })).failure).toEqual({ code: 'REQUEST_TOO_LARGE', status: 413 });
    // Small on the wire, over the limit once inflated: a zip bomb does not get past the limit.
    const bomb = gzipSync(big);
    expect(bomb.length).toBeLessThan(LIMIT);
    expect((await post(bomb, { 'content-encoding': 'gzip' })).failure).toEqual({ code: 'REQUEST_TOO_LARGE', status: 413 });
  });

  it('should answer an empty body as missing and broken JSON or broken gzip as 400', async () => {
    expect((await post('')).failure).toEqual({ code: 'MISSING_BODY', status: 400 });
    expect((await post('{"model": ')).failure).toEqual({ code: 'INVALID_JSON', status: 400 });
    expect((await post('not gzip', { 'content-encoding': 'gzip' })).failure).toEqual({ code: 'UNREADABLE_BODY', status: 400 });
  });
});
