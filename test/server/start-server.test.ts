import { connect } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { createMockProvider, DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';

const KEY = 'sk-start-server-test';
const running: RunningServer[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) {
    server.server.closeAllConnections();
    server.server.close();
  }
});

async function start(options: GatewayOptions = {}, shutdownTimeoutMs = 5_000): Promise<RunningServer> {
  const server = await startServer({ apiKeys: [KEY], logger: silentLogger, ...options }, { port: 0, host: '127.0.0.1', shutdownTimeoutMs });
  running.push(server);
  return server;
}

const slowModel: GatewayOptions = {
  providers: { slow: { type: 'mock', chunks: 4, chunkDelayMs: 150 } },
  models: [{ id: 'slow', provider: 'slow' }],
};

function streamChat(server: RunningServer, model: string) {
  return fetch(`${server.openAIBaseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
  });
}

/** The text of a Chat Completions SSE body, whether it ended with [DONE], its in-band error, and whether the body was cut. */
async function readChatStream(response: Response): Promise<{ text: string; done: boolean; error?: { message: string }; cut?: true }> {
  let raw = '';
  let cut = false;
  try {
    for await (const chunk of response.body ?? []) raw += Buffer.from(chunk).toString();
  } catch {
    cut = true;
  }
  const events = raw
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { choices?: Array<{ delta: { content?: string } }>; error?: { message: string } });
  const text = events.map((event) => event.choices?.[0]?.delta.content ?? '').join('');
  const error = events.find((event) => event.error !== undefined)?.error;
  return { text, done: raw.includes('data: [DONE]'), ...(error ? { error } : {}), ...(cut ? { cut } : {}) };
}

const connectResult = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => (socket.destroy(), resolve('connected')));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

describe('startServer', () => {
  it('should serve the gateway at the root and report the URLs clients take', async () => {
    const server = await start();
    expect(server.root).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openAIBaseURL).toBe(`${server.root}/v1`);
    const response = await fetch(`${server.openAIBaseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock', messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(
      DEFAULT_MOCK_REPLY,
    );
    expect((await fetch(`${server.openAIBaseURL}/models`)).status).toBe(401);
  });

  it('should give a wildcard host as localhost in its URLs', async () => {
    const server = await startServer({ apiKeys: [KEY], logger: silentLogger }, { port: 0, host: '0.0.0.0', shutdownTimeoutMs: 0 });
    running.push(server);
    expect(server.root).toMatch(/^http:\/\/localhost:\d+$/);
    expect((await fetch(`${server.root}/health`)).status).toBe(200);
  });

  it('should answer /health without a key', async () => {
    const server = await start();
    const response = await fetch(`${server.root}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('should refuse new connections on close and let an open stream finish', async () => {
    const server = await start(slowModel);
    const port = Number(new URL(server.root).port);
    const response = await streamChat(server, 'slow');
    expect(response.status).toBe(200);
    expect(server.openRequests()).toBe(1);
    const closing = server.close();
    expect(await connectResult(port)).toBe('ECONNREFUSED');
    expect(await readChatStream(response)).toEqual({ text: DEFAULT_MOCK_REPLY, done: true });
    expect(await closing.done).toEqual({ forced: false });
  });

  it('should end streams still open when shutdownTimeoutMs is up with the in-band error, then close', async () => {
    const server = await start({ ...slowModel, providers: { slow: { type: 'mock', chunks: 20, chunkDelayMs: 200 } } }, 300);
    const response = await streamChat(server, 'slow');
    const started = Date.now();
    expect(await server.close().done).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    const result = await readChatStream(response);
    expect(result.done).toBe(false);
    expect(result.text.length).toBeLessThan(DEFAULT_MOCK_REPLY.length);
    expect(result.error?.message).toBe('The gateway is shutting down; retry the request.');
    expect(result.cut).toBeUndefined();
  });

  it('should close the providers once every connection is closed', async () => {
    const closed: string[] = [];
    const mock = createMockProvider();
    const closable = { ...mock, id: 'closable', close: async () => void closed.push('closable') };
    const server = await start({ providers: { closable }, models: [{ id: 'c', provider: 'closable' }] });
    const answer = await streamChat(server, 'c');
    const closing = server.close();
    expect(closed).toEqual([]); // not while a stream may still need its upstream
    await answer.text();
    await closing.done;
    expect(closed).toEqual(['closable']);
  });

  it('should throw a config error before listening when the options are invalid', async () => {
    await expect(
      startServer(
        { models: [{ id: 'x', provider: 'nowhere' }], logger: silentLogger },
        { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 0 },
      ),
    ).rejects.toMatchObject({
      code: 'CONFIG_UNKNOWN_PROVIDER',
    });
  });

  it('should say when the port is taken', async () => {
    const first = await start();
    const port = Number(new URL(first.root).port);
    const error = await startServer({ apiKeys: [KEY], logger: silentLogger }, { port, host: '127.0.0.1', shutdownTimeoutMs: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(GatewayError.isInstance(error) && error.code).toBe('CONFIG_LISTEN_FAILED');
    // The wording docs/troubleshooting.md quotes.
    expect(String((error as Error).message)).toBe(
      `Cannot listen on 127.0.0.1:${port}: port ${port} is already in use (EADDRINUSE); stop what uses it, or pick another with --port.`,
    );
  });
});

describe('paths the standalone server does not serve', () => {
  it('should tell an openai client that embeddings are not offered: text generation only', async () => {
    const server = await start();
    const client = new OpenAI({ apiKey: KEY, baseURL: server.openAIBaseURL });
    const error = await client.embeddings.create({ model: 'mock', input: 'hi' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const notFound = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(notFound.code).toBe('endpoint_not_supported');
    expect(notFound.message).toContain('POST /v1/embeddings is not served: this gateway serves text generation only');
    expect(notFound.headers.get('x-should-retry')).toBe('false');
  });

  it('should say the same of audio, images and the legacy completions', async () => {
    const server = await start();
    for (const path of ['/v1/audio/speech', '/v1/images/generations', '/v1/completions']) {
      const response = await fetch(`${server.root}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: '{}' });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('endpoint_not_supported');
      expect(body.error.message).toContain('text generation only');
    }
  });

  it('should answer any other path with a 404 in the OpenAI shape listing the endpoints offered', async () => {
    const server = await start();
    const response = await fetch(`${server.root}/v1/nothing-here`);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string; message: string; type: string } };
    expect(body.error).toMatchObject({ code: 'not_found', type: 'invalid_request_error' });
    for (const endpoint of [
      'POST /v1/chat/completions',
      'POST /v1/responses',
      'POST /v1/messages',
      'POST /v1/messages/count_tokens',
      'POST /v1/responses/input_tokens',
      'GET /v1/models',
    ]) {
      expect(body.error.message).toContain(endpoint);
    }
  });

  it('should still diagnose a base URL with /v1 twice or without /v1', async () => {
    const server = await start();
    const openai = await new OpenAI({ apiKey: KEY, baseURL: `${server.openAIBaseURL}/v1`, maxRetries: 0 }).models
      .list()
      .catch((caught: unknown) => caught);
    expect(openai).toMatchObject({ status: 404, code: 'double_v1_path' });
    const anthropic = await new Anthropic({ apiKey: KEY, baseURL: `${server.root}/v1` }).messages
      .create({ model: 'mock', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(anthropic).toBeInstanceOf(Anthropic.BadRequestError);
    const missing = await fetch(`${server.root}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: '{}',
    });
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('missing_v1_path');
  });
});
