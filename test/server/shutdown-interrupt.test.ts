import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';

const KEY = 'sk-shutdown-test';
const MESSAGE = 'The gateway is shutting down; retry the request.';

/**
 * A loopback Chat Completions and Messages upstream that never finishes: a stream sends its start
 * and one text delta, then stays open; a non-streamed answer never comes.
 */
async function startHangingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { stream?: boolean };
      if (!body.stream) return; // hangs
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url === '/v1/chat/completions') {
        const chunk = (delta: object) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1, model: 'up', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Hel' }));
      } else {
        const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
        res.write(
          event('message_start', {
            message: {
              id: 'msg_up',
              type: 'message',
              role: 'assistant',
              model: 'up',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 3, output_tokens: 0 },
            },
          }) +
            event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
            event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup().catch(() => undefined)));
  cleanups = [];
});

async function start(shutdownTimeoutMs: number): Promise<RunningServer> {
  const upstream = await startHangingUpstream();
  cleanups.push(() => upstream.close());
  const running = await startServer(
    {
      apiKeys: [KEY],
      logger: silentLogger,
      providers: {
        openai: { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
        anthropic: { apiKey: 'sk-ant-up', baseURL: upstream.url },
        // Forty chunks, 150 ms apart: still streaming at the deadline.
        slow: createMockProvider({ chunks: 40, chunkDelayMs: 150 }),
      },
      models: [
        { id: 'gpt-up', provider: 'openai' },
        { id: 'claude-up', provider: 'anthropic' },
        { id: 'slow', provider: 'slow' },
      ],
    },
    { port: 0, host: '127.0.0.1', shutdownTimeoutMs },
  );
  cleanups.push(async () => {
    running.server.closeAllConnections();
    await new Promise((resolve) => running.server.close(resolve));
  });
  return running;
}

/** What the SDK call threw (or 'no error'). */
async function thrownBy(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    return error;
  }
}

/** A raw streamed POST: resolves once the answer's headers and first bytes arrived; `body` rejects if the body was cut. */
async function openRawStream(url: string, headers: Record<string, string>, body: object) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ ...body, stream: true }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value, { stream: true });
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read(); // throws TypeError('terminated') on a cut chunked body
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { requestId: response.headers.get('x-request-id'), body: rest };
}

/** The SSE events of a raw body, in order: `{ event, data }`. */
function eventsOf(raw: string): Array<{ event: string | undefined; data: string }> {
  return raw
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1],
      data: frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    }));
}

describe('the standalone server past its shutdown deadline', () => {
  it("should end each open stream with its protocol's in-band error, not a cut connection, and answer a pending request with 503", {
    timeout: 10_000,
  }, async () => {
    const running = await start(300);
    const openai = new OpenAI({ baseURL: running.openAIBaseURL, apiKey: KEY, maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: running.root, apiKey: KEY, maxRetries: 0 });
    const user = [{ role: 'user' as const, content: 'Hi' }];

    // The openai SDK, Chat Completions through the same-protocol relay (upstream bytes passed through).
    const chatStream = await openai.chat.completions.create({ model: 'gpt-up', stream: true, messages: user });
    const chatIterator = chatStream[Symbol.asyncIterator]();
    expect((await chatIterator.next()).done).toBe(false);
    const chatError = thrownBy(async () => {
      for (let next = await chatIterator.next(); !next.done; next = await chatIterator.next());
    });
    // The anthropic SDK, Messages encoded from the mock provider's events.
    const messagesStream = anthropic.messages.stream({ model: 'slow', max_tokens: 64, messages: user });
    await new Promise((resolve) => messagesStream.once('text', resolve));
    const messagesError = thrownBy(() => messagesStream.finalMessage());
    // The anthropic SDK, Messages relayed from an Anthropic upstream.
    const relayedStream = anthropic.messages.stream({ model: 'claude-up', max_tokens: 64, messages: user });
    await new Promise((resolve) => relayedStream.once('text', resolve));
    const relayedError = thrownBy(() => relayedStream.finalMessage());
    // Raw bodies: Chat, Responses and Messages.
    const rawChat = await openRawStream(
      `${running.openAIBaseURL}/chat/completions`,
      { authorization: `Bearer ${KEY}` },
      { model: 'slow', messages: user },
    );
    const rawResponses = await openRawStream(
      `${running.openAIBaseURL}/responses`,
      { authorization: `Bearer ${KEY}` },
      { model: 'slow', input: 'Hi' },
    );
    const rawMessages = await openRawStream(
      `${running.root}/v1/messages`,
      { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      { model: 'slow', max_tokens: 64, messages: user },
    );
    // Not streamed, and no answer yet: headers not sent at the deadline.
    const pendingChat = thrownBy(() => openai.chat.completions.create({ model: 'gpt-up', messages: user }));
    const pendingMessages = thrownBy(() => anthropic.messages.create({ model: 'claude-up', max_tokens: 64, messages: user }));
    // The two pending requests reach the server when they do (a loaded machine takes its time): wait for them.
    for (let tries = 0; tries < 250 && running.openRequests() < 8; tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.openRequests()).toBe(8);

    const closing = running.close();

    // The SDKs raise their API error carrying the gateway's message, not a bare `terminated`.
    const chat = await chatError;
    expect(chat).toBeInstanceOf(OpenAI.APIError);
    expect((chat as InstanceType<typeof OpenAI.APIError>).message).toContain(MESSAGE);
    expect((chat as InstanceType<typeof OpenAI.APIError>).type).toBe('service_unavailable_error');
    for (const [error, stream] of [
      [await messagesError, messagesStream],
      [await relayedError, relayedStream],
    ] as const) {
      expect(error).toBeInstanceOf(Anthropic.APIError);
      const apiError = error as InstanceType<typeof Anthropic.APIError>;
      expect(apiError.message).toContain(MESSAGE);
      expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: MESSAGE } });
      // The request id, in the event as on the answer's headers.
      const requestId = (await stream.withResponse()).request_id;
      expect(requestId).toMatch(/^req_/);
      expect((apiError.error as { request_id?: string }).request_id).toBe(requestId);
    }

    // The raw bodies end properly (a cut chunked body rejects), with the protocol's error last.
    const chatEvents = eventsOf(await rawChat.body);
    expect(JSON.parse(chatEvents.at(-1)!.data)).toEqual({
      error: { message: MESSAGE, type: 'service_unavailable_error', param: null, code: 'shutting_down' },
    });
    const responsesEvents = eventsOf(await rawResponses.body);
    expect(responsesEvents.at(-1)?.event).toBe('response.failed');
    expect(JSON.parse(responsesEvents.at(-1)!.data)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'server_error', message: MESSAGE } },
    });
    const messagesEvents = eventsOf(await rawMessages.body);
    expect(messagesEvents.at(-1)?.event).toBe('error');
    expect(JSON.parse(messagesEvents.at(-1)!.data)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: MESSAGE },
      request_id: rawMessages.requestId,
    });

    // A request whose answer had not begun gets the protocol's error status, with its request id.
    const pending = (await pendingChat) as InstanceType<typeof OpenAI.APIError>;
    expect(pending).toBeInstanceOf(OpenAI.APIError);
    expect(pending.status).toBe(503);
    expect(pending.message).toContain(MESSAGE);
    expect(pending.requestID).toMatch(/^req_/);
    const pendingAnthropic = (await pendingMessages) as InstanceType<typeof Anthropic.APIError>;
    expect(pendingAnthropic).toBeInstanceOf(Anthropic.APIError);
    expect(pendingAnthropic.status).toBe(529);
    expect(pendingAnthropic.error).toMatchObject({ error: { type: 'overloaded_error', message: MESSAGE } });

    expect(await closing.done).toEqual({ forced: true });
    expect(running.openRequests()).toBe(0);
  });

  it('should end open streams the same way when forced before the deadline (a second Ctrl-C)', { timeout: 10_000 }, async () => {
    const running = await start(60_000);
    const raw = await openRawStream(
      `${running.openAIBaseURL}/chat/completions`,
      { authorization: `Bearer ${KEY}` },
      { model: 'slow', messages: [{ role: 'user', content: 'Hi' }] },
    );
    const closing = running.close();
    const started = Date.now();
    closing.force();
    const events = eventsOf(await raw.body);
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ error: { message: MESSAGE } });
    expect(await closing.done).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
