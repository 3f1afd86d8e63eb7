import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError, upstreamErrorCode } from '../../../src/canonical/index.js';
import { RequestAbort } from '../../../src/providers/transport/cancellation.js';
import { createUpstream, type Upstream } from '../../../src/providers/transport/upstream.js';
import type { SseMessage } from '../../../src/sse/format-sse.js';
import { sseText, startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

let mock: MockUpstream;
let upstream: Upstream;
const signal = () => new AbortController().signal;

beforeEach(async () => {
  mock = await startMockUpstream();
  upstream = createUpstream({
    name: 'test',
    baseURL: `${mock.url}/v1/`,
    headers: { authorization: 'Bearer upstream-key' },
    query: { 'api-version': '2025-01-01' },
    drainMs: 100,
    parseError: (status, body) =>
      new GatewayError({
        kind: status === 429 ? 'rate_limit' : 'invalid_request',
        code: 'UPSTREAM_ERROR',
        status,
        message: JSON.stringify(body),
      }),
  });
});
afterEach(async () => {
  await upstream.close();
  await mock.close();
});

async function collect(messages: AsyncIterable<SseMessage>) {
  const all: SseMessage[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

describe('createUpstream', () => {
  it('should post JSON under the base path with its headers and query', async () => {
    mock.reply({ json: { ok: true } });
    const answer = await upstream.postJson({ path: '/chat/completions', body: { a: 1 }, signal: signal(), headers: { 'x-extra': '1' } });
    expect(answer).toEqual({ ok: true });
    expect(mock.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions?api-version=2025-01-01',
      body: { a: 1 },
      headers: { authorization: 'Bearer upstream-key', 'x-extra': '1', 'content-type': 'application/json' },
    });
  });

  it("should let a call's header replace the adapter's of the same name, once, but never content-type or accept", async () => {
    mock.reply({ json: { ok: true } });
    await upstream.postJson({
      path: '/responses',
      body: {},
      signal: signal(),
      headers: { authorization: 'Bearer call-key', 'content-type': 'text/plain', accept: 'text/html', 'x-call': '2' },
    });
    const sent = mock.requests[0]!.rawHeaders;
    const values = (name: string) => sent.filter((_, index) => index % 2 === 0 && sent[index]!.toLowerCase() === name).length;
    expect(mock.requests[0]!.headers).toMatchObject({
      authorization: 'Bearer call-key',
      'content-type': 'application/json',
      accept: 'application/json',
      'x-call': '2',
    });
    expect([values('authorization'), values('content-type'), values('accept')]).toEqual([1, 1, 1]);
  });

  it("should turn an error status into the parser's GatewayError, with retry-after from the headers", async () => {
    mock.reply({ status: 429, headers: { 'retry-after': '12' }, json: { error: { message: 'slow' } } });
    const error = await upstream.postJson({ path: '/x', body: {}, signal: signal() }).catch((caught: unknown) => caught);
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, kind: 'rate_limit', retryAfter: 12, retryable: true });
    expect((error as Error).message).toContain('slow');
  });

  it('should stream SSE messages split across arbitrary byte boundaries', async () => {
    const frames = [{ data: { text: 'naïve 👋' } }, { event: 'done', data: '[DONE]' }];
    mock.reply({ sse: sseText(frames), chunkBytes: 1 });
    const messages = await collect(await upstream.postSse({ path: '/s', body: {}, signal: signal() }));
    expect(messages).toEqual([{ data: '{"text":"naïve 👋"}' }, { event: 'done', data: '[DONE]' }]);
  });

  it('should report an error status on a streaming call before any message', async () => {
    mock.reply({ status: 400, json: { error: 'bad' } });
    await expect(upstream.postSse({ path: '/s', body: {}, signal: signal() })).rejects.toMatchObject({ status: 400 });
  });

  it('should close the upstream connection when the caller aborts mid-stream', async () => {
    mock.reply({ hang: true, sse: sseText([{ data: { n: 1 } }]) });
    const controller = new AbortController();
    const messages = await upstream.postSse({ path: '/s', body: {}, signal: controller.signal });
    const iterator = messages[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual({ data: '{"n":1}' });
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ code: 'REQUEST_ABORTED' });
    await expect.poll(() => mock.closedConnections).toBe(1);
  });

  it('should keep the connection for the next call when the caller stops at a completed answer', async () => {
    mock.reply({ sse: sseText([{ data: { n: 1 } }, { data: '[DONE]' }]), chunkBytes: 12, delayMs: 5 });
    for (let call = 0; call < 3; call += 1) {
      const messages = await upstream.postSse({ path: '/s', body: {}, signal: signal() });
      for await (const message of messages) {
        if (message.data !== '[DONE]') continue;
        messages.complete();
        break;
      }
      // The body's end arrives after the reader stopped; the connection is still reused.
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(mock.requests).toHaveLength(3);
    expect(mock.openedConnections).toBe(1);
    expect(mock.closedConnections).toBe(0);
  });

  it('should close the connection at once when the caller stops without completing the answer', async () => {
    mock.reply({ hang: true, sse: sseText([{ data: { n: 1 } }]) });
    const messages = await upstream.postSse({ path: '/s', body: {}, signal: signal() });
    for await (const _message of messages) break;
    await expect.poll(() => mock.closedConnections).toBe(1);
  });

  it('should say the answer broke off, not that the provider could not be reached, when the connection drops mid-stream', async () => {
    // Headers and one event, then the connection is cut: text had already arrived.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseText([{ data: { text: 'Hel' } }]), () => setTimeout(() => res.socket?.destroy(), 20));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const resetting = createUpstream({
      name: 'test',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      headers: {},
      parseError: () => new GatewayError({ kind: 'internal', code: upstreamErrorCode('X'), message: 'x' }),
    });
    try {
      const iterator = (await resetting.postSse({ path: '/s', body: {}, signal: signal() }))[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toEqual({ data: '{"text":"Hel"}' });
      const error = await iterator.next().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'STREAM_ENDED_EARLY', kind: 'upstream', retryable: true });
      expect((error as Error).message).not.toMatch(/could not be reached|before an answer came/);
      expect((error as Error).message).toContain("The provider 'test' broke off its answer");
    } finally {
      await resetting.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('should report an unreachable upstream as a retryable 502', async () => {
    const dead = createUpstream({
      name: 'test',
      baseURL: 'http://127.0.0.1:1',
      headers: {},
      parseError: () => new GatewayError({ kind: 'internal', code: upstreamErrorCode('X'), message: 'x' }),
    });
    await expect(dead.postJson({ path: '/x', body: {}, signal: signal() })).rejects.toMatchObject({
      code: 'UPSTREAM_UNREACHABLE',
      status: 502,
      retryable: true,
    });
    await dead.close();
  });
});

describe("createUpstream: undici's own timers", () => {
  const sse = sseText([{ data: '{"n":1}' }, { data: '{"n":2}' }, { data: '[DONE]' }]);

  async function readPaced(signal: AbortSignal | RequestAbort): Promise<SseMessage[]> {
    // A pause between the answer's two pieces well past the pool's body timeout (undici checks
    // its timers about twice a second).
    mock.reply({ sse, chunkBytes: Math.ceil(sse.length / 2), delayMs: 1_500 });
    const paced = createUpstream({
      name: 'paced',
      baseURL: `${mock.url}/v1/`,
      headers: {},
      bodyTimeoutMs: 100,
      parseError: () => new GatewayError({ code: 'UPSTREAM_ERROR', message: 'x' }),
    });
    try {
      return await collect(await paced.postSse({ path: '/chat/completions', body: {}, signal }));
    } finally {
      await paced.close();
    }
  }

  it('should keep the body timeout for a call no deadline watches', async () => {
    const failure = await readPaced(signal()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(String((failure as GatewayError).message)).toMatch(/time/i);
  });

  it("should leave the limits of a call the gateway's deadline watches to it", async () => {
    const watched = new RequestAbort();
    watched.watch = { connecting() {}, connected() {} };
    const messages = await readPaced(watched);
    expect(messages.map((message) => message.data)).toEqual(['{"n":1}', '{"n":2}', '[DONE]']);
  });
});
