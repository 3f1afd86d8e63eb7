import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { addAnswerHeader } from '../../src/http/answer-headers.js';
import { sendJson } from '../../src/http/send-json.js';
import { startSse } from '../../src/http/sse-writer.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('answer headers', () => {
  it('writes added headers with the answer, a name added again keeping its last value, and over an error’s own', async () => {
    const url = await serve((_req, res) => {
      addAnswerHeader(res, 'x-ratelimit-remaining-requests', '9');
      addAnswerHeader(res, 'x-switchyard-overhead-ms', '1.5');
      addAnswerHeader(res, 'x-ratelimit-remaining-requests', '8');
      sendJson(res, 429, { error: 'slow down' }, 'req_1', { 'retry-after': '3', 'x-switchyard-overhead-ms': 'from the error' });
    });
    const answer = await fetch(url);
    expect(answer.status).toBe(429);
    expect(await answer.json()).toEqual({ error: 'slow down' });
    expect(answer.headers.get('x-ratelimit-remaining-requests')).toBe('8');
    expect(answer.headers.get('x-switchyard-overhead-ms')).toBe('1.5');
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('x-request-id')).toBe('req_1');
    expect(answer.headers.get('request-id')).toBe('req_1');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('content-length')).toBe(String(JSON.stringify({ error: 'slow down' }).length));
  });

  it('merges them with headers a host app set before, overriding one of the same name', async () => {
    const app = express();
    app.use((_req, res) => {
      res.setHeader('x-host', 'kept');
      res.setHeader('x-switchyard-overhead-ms', 'the host value');
      addAnswerHeader(res, 'x-switchyard-overhead-ms', '2');
      sendJson(res, 200, { ok: true }, 'req_2');
    });
    const url = await serve(app);
    const answer = await fetch(url);
    expect(answer.headers.get('x-host')).toBe('kept');
    expect(answer.headers.get('x-switchyard-overhead-ms')).toBe('2');
    expect(answer.headers.get('x-request-id')).toBe('req_2');
    expect(await answer.json()).toEqual({ ok: true });
  });

  it('lets a stage name the request id itself, sent once', async () => {
    const url = await serve((_req, res) => {
      addAnswerHeader(res, 'x-request-id', "the stage's id");
      sendJson(res, 200, { ok: true }, 'req_4');
    });
    const answer = await fetch(url);
    expect(answer.headers.get('x-request-id')).toBe("the stage's id");
    expect(answer.headers.get('request-id')).toBe('req_4');
  });

  it('starts a stream with them', async () => {
    const url = await serve((_req, res) => {
      addAnswerHeader(res, 'anthropic-ratelimit-requests-remaining', '4');
      void startSse(res, 'req_3', 'event: ping\ndata: {}\n\n').then(() => res.end());
    });
    const answer = await fetch(url);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.get('anthropic-ratelimit-requests-remaining')).toBe('4');
    expect(answer.headers.get('request-id')).toBe('req_3');
    expect(await answer.text()).toBe('event: ping\ndata: {}\n\n');
  });
});
