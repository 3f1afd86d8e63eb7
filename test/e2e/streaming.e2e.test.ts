import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { RequestHandler } from 'express';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError, type CanonicalStreamEvent, upstreamErrorCode } from '../../src/canonical/index.js';
import type { ProviderContext } from '../../src/providers/types.js';
import { createScriptedProvider, gate } from '../helpers/scripted-provider.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** A gateway serving `script` as the model `scripted`; `host` runs in the host app before it. */
async function withProvider(script: (context: ProviderContext) => AsyncIterable<CanonicalStreamEvent>, host?: RequestHandler) {
  const provider = createScriptedProvider(script);
  running = await startGateway(
    { providers: { scripted: provider }, models: [{ id: 'scripted', provider: 'scripted' }] },
    '/',
    host && ((app) => app.use(host)),
  );
  return { provider, root: running.root };
}

const usage = { inputTokens: 3, outputTokens: 2 };
const chatStream = (root: string, signal?: AbortSignal) =>
  fetch(`${root}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    signal,
  });

describe('streaming through the gateway', () => {
  it('should send SSE headers that keep proxies and compression from buffering', async () => {
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'ok' };
      yield { type: 'text-end', id: 't' };
      yield { type: 'finish', finishReason: { unified: 'stop' }, usage };
    });
    const response = await chatStream(root);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toContain('no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toContain('data: [DONE]');
  });

  it('should deliver each event before the provider produces the next one', async () => {
    const firstSeen = gate();
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'first' };
      await firstSeen.opened; // only the client reading 'first' lets the stream go on
      yield { type: 'text-delta', id: 't', delta: 'second' };
      yield { type: 'text-end', id: 't' };
      yield { type: 'finish', finishReason: { unified: 'stop' }, usage };
    });
    const reader = (await chatStream(root)).body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    while (!received.includes('first')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    expect(received).toContain('first');
    expect(received).not.toContain('second');
    firstSeen.open();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    expect(received).toContain('second');
  });

  it('should put the opening events on the wire, with the headers, before the rest of a burst is translated', async () => {
    // One upstream read often holds many events. Node's http corks the socket until the end of the
    // tick, so without an explicit flush the first event would wait for the whole burst.
    let socket: Socket | undefined;
    let pendingWhenResumed: { corked: number; bytes: number } | undefined;
    const { root } = await withProvider(
      async function* () {
        yield { type: 'start', id: 's', model: 'scripted' };
        yield { type: 'text-start', id: 't' }; // the first output event: the opening ends here
        // Resumed in the same tick, right after the gateway wrote the opening.
        pendingWhenResumed = { corked: socket!.writableCorked, bytes: socket!.writableLength };
        yield { type: 'text-delta', id: 't', delta: 'first' };
        for (let index = 0; index < 20; index++) yield { type: 'text-delta', id: 't', delta: ` more${index}` };
        yield { type: 'text-end', id: 't' };
        yield { type: 'finish', finishReason: { unified: 'stop' }, usage };
      },
      (req, _res, next) => {
        socket = req.socket;
        next();
      },
    );
    const response = await chatStream(root);
    const text = await response.text();
    expect(pendingWhenResumed).toEqual({ corked: 0, bytes: 0 });
    expect(text).toContain('"content":"first"');
    expect(text).toContain('more19');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('should write a burst of events as one chunk, in order, not one write per event', async () => {
    // With chunked encoding each res.write is several socket writes; a burst from one upstream read
    // goes out joined.
    let writes = 0;
    const { root } = await withProvider(
      async function* () {
        yield { type: 'start', id: 's', model: 'scripted' };
        yield { type: 'text-start', id: 't' };
        for (let index = 0; index < 40; index++) yield { type: 'text-delta', id: 't', delta: `<${index}>` };
        yield { type: 'text-end', id: 't' };
        yield { type: 'finish', finishReason: { unified: 'stop' }, usage };
      },
      (_req, res, next) => {
        const write = res.write.bind(res) as (...args: unknown[]) => boolean;
        res.write = ((...args: unknown[]) => {
          writes += 1;
          return write(...args);
        }) as typeof res.write;
        next();
      },
    );
    const text = await (await chatStream(root)).text();
    const deltas = [...text.matchAll(/"content":"<(\d+)>"/g)].map((match) => Number(match[1]));
    expect(deltas).toEqual(Array.from({ length: 40 }, (_, index) => index));
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    // The opening, then the burst; the last events may go with res.end().
    expect(writes).toBeLessThanOrEqual(2);
  });

  it('should stop pulling events from the provider while the client is not reading, and lose none', async () => {
    const total = 20_000;
    const piece = 'x'.repeat(1000);
    let pulled = 0;
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      for (; pulled < total; pulled++) yield { type: 'text-delta', id: 't', delta: piece };
      yield { type: 'text-end', id: 't' };
      yield { type: 'finish', finishReason: { unified: 'stop' }, usage };
    });
    const url = new URL(`${root}/v1/chat/completions`);
    const body = JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outbound = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        },
        resolve,
      );
      outbound.on('error', reject);
      outbound.end(body);
    });
    response.pause(); // a client that stops reading
    await new Promise((resolve) => setTimeout(resolve, 300));
    const pulledWhilePaused = pulled;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulled).toBe(pulledWhilePaused); // waiting on the socket, not pulling
    expect(pulled).toBeLessThan(total);
    let text = '';
    response.setEncoding('utf8');
    for await (const part of response) text += part as string;
    expect(text.split(piece).length - 1).toBe(total);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('should abort the provider when the client disconnects', async () => {
    const aborted = gate<boolean>();
    const { root } = await withProvider(async function* (context) {
      context.signal.addEventListener('abort', () => aborted.open(true));
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'hello' };
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
    });
    const controller = new AbortController();
    const response = await chatStream(root, controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    expect(await aborted.opened).toBe(true);
  });

  it('should turn a failure before the first output into an HTTP status with retry-after', async () => {
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      throw new GatewayError({
        kind: 'rate_limit',
        code: upstreamErrorCode('UPSTREAM_RATE_LIMITED'),
        message: 'Slow down.',
        retryAfter: 7,
      });
    });
    const response = await chatStream(root);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Slow down.');
  });

  it('should report a failure after the first output in-band to the openai SDK', async () => {
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'partial' };
      throw new GatewayError({ kind: 'upstream', code: upstreamErrorCode('UPSTREAM_FAILED'), message: 'The upstream went away.' });
    });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${root}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'scripted',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const texts: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((error: unknown) => error);
    expect(texts.join('')).toBe('partial');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(String((failure as Error).message)).toContain('The upstream went away.');
  });

  it('should report a failure after the first output in-band to the Anthropic SDK', async () => {
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'partial' };
      throw new GatewayError({ kind: 'overloaded', code: upstreamErrorCode('UPSTREAM_OVERLOADED'), message: 'Overloaded.' });
    });
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: root, maxRetries: 0 });
    const failure = await client.messages
      .stream({ model: 'scripted', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .finalMessage()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(String((failure as Error).message)).toContain('Overloaded.');
  });

  it('should report a stream that ends without finishing as an in-band error', async () => {
    const { root } = await withProvider(async function* () {
      yield { type: 'start', id: 's', model: 'scripted' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'cut' };
    });
    const text = await (await chatStream(root)).text();
    expect(text).toContain('"error"');
    expect(text).toContain('ended before the answer was finished');
  });
});
