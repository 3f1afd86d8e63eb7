// What the official clients do with the gateway's errors at their default settings: they obey
// `x-should-retry` before their status rule (408, 409, 429 and 5xx are retried), so an error that
// retrying cannot fix is seen at once, with the gateway's message, and a retryable one is retried.
// Requests are counted on the gateway's side.
import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

/** Requests the gateway received, by path. */
const seen: string[] = [];
const count = (path: string) => seen.filter((seenPath) => seenPath === path).length;

let upstream: MockUpstream;
let running: RunningGateway;
beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.reply({ status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
  running = await startGateway(
    {
      providers: {
        anthropic: createAnthropicProvider({ apiKey: 'sk-ant-api03-wrong', baseURL: upstream.url }),
        chat: createOpenAICompatibleProvider({ id: 'chat', baseURL: `${upstream.url}/v1`, apiKey: 'sk-wrong' }),
      },
      models: [
        { id: 'mock', provider: 'mock' },
        { id: 'refused-claude', provider: 'anthropic', upstreamModel: 'claude-x' },
        { id: 'refused-chat', provider: 'chat', upstreamModel: 'm' },
      ],
    },
    '/',
    (app) => app.use((req, _res, next) => (seen.push(req.path), next())),
  );
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});
beforeEach(() => {
  seen.length = 0;
});

const messagesBody = (model: string) => ({ model, max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }] });
const chatBody = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hi' }] });
/** What the SDKs' APIError carries: the status, the answer's headers and its parsed body. */
type ApiError = Error & { status?: number; headers?: Headers; error?: { error?: { message?: string }; message?: string; code?: string } };
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error as ApiError,
  );
const headerOf = (error: ApiError, name: string) => error.headers?.get(name);
/** The message the gateway wrote: Anthropic's `error.message`, or OpenAI's (the openai SDK's `error` is the inner object). */
const gatewayMessageOf = (error: ApiError) => error.error?.error?.message ?? error.error?.message;

describe('x-should-retry', () => {
  it('should have each Anthropic SDK line make one request for a wrong key, at its default retries', async () => {
    const lines = [
      (body: ReturnType<typeof messagesBody>) => new Anthropic({ apiKey: 'wrong', baseURL: running.root }).messages.create(body),
      (body: ReturnType<typeof messagesBody>) => new Anthropic0({ apiKey: 'wrong', baseURL: running.root }).messages.create(body),
    ];
    for (const create of lines) {
      seen.length = 0;
      const failure = await failureOf(create(messagesBody('mock')));
      expect(failure.status).toBe(401);
      expect(headerOf(failure, 'x-should-retry')).toBe('false');
      expect(failure.message).toContain(gatewayMessageOf(failure));
      expect(count('/v1/messages')).toBe(1);
    }
  });

  it('should have the openai client make one request for a wrong key, at its default retries', async () => {
    const failure = await failureOf(
      new OpenAI({ apiKey: 'wrong', baseURL: running.openAIBaseURL }).chat.completions.create(chatBody('mock')),
    );
    expect(failure.status).toBe(401);
    expect(headerOf(failure, 'x-should-retry')).toBe('false');
    expect(count('/v1/chat/completions')).toBe(1);
  });

  it("should have the clients make one request when the provider refuses the gateway's credentials (a 502 they would retry)", async () => {
    const anthropic = await failureOf(
      new Anthropic({ apiKey: TEST_KEY, baseURL: running.root }).messages.create(messagesBody('refused-claude')),
    );
    expect(anthropic.status).toBe(502);
    expect(anthropic.message).toContain(gatewayMessageOf(anthropic));
    expect(count('/v1/messages')).toBe(1);

    const openai = await failureOf(
      new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL }).chat.completions.create(chatBody('refused-chat')),
    );
    expect(openai.status).toBe(502);
    expect(openai.error?.code).toBe('upstream_authentication_failed');
    expect(count('/v1/chat/completions')).toBe(1);
  });

  it('should still have the clients retry an error that retrying fixes (the gateway shutting down)', async () => {
    const stopping = await startGateway({}, '/', (app) => app.use((req, _res, next) => (seen.push(req.path), next())));
    try {
      stopping.gateway.interrupt();
      const anthropic = await failureOf(
        new Anthropic({ apiKey: TEST_KEY, baseURL: stopping.root, maxRetries: 1 }).messages.create(messagesBody('mock')),
      );
      expect(anthropic.status).toBe(529);
      expect(headerOf(anthropic, 'x-should-retry')).toBe('true');
      expect(count('/v1/messages')).toBe(2);

      const openai = await failureOf(
        new OpenAI({ apiKey: TEST_KEY, baseURL: stopping.openAIBaseURL, maxRetries: 1 }).chat.completions.create(chatBody('mock')),
      );
      expect(openai.status).toBe(503);
      expect(count('/v1/chat/completions')).toBe(2);
    } finally {
      await stopping.close();
      await stopping.gateway.close();
    }
  });
});

describe('a base URL ending in /v1 given to an Anthropic client (/v1/v1/messages)', () => {
  it('should be a 400 invalid_request_error carrying the diagnosis, which Claude Code prints, not a 404 it reads as a model problem', async () => {
    const failure = await failureOf(
      new Anthropic({ apiKey: TEST_KEY, baseURL: `${running.root}/v1` }).messages.create(messagesBody('mock')),
    );
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    expect((failure as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(failure.message).toContain('repeats /v1');
    expect(failure.message).toContain(`Anthropic clients (and ANTHROPIC_BASE_URL) take ${running.root};`);
    expect(count('/v1/v1/messages')).toBe(1);
  });

  it('should stay a 404 for OpenAI clients, which show its message', async () => {
    const failure = await failureOf(
      new OpenAI({ apiKey: TEST_KEY, baseURL: `${running.openAIBaseURL}/v1` }).chat.completions.create(chatBody('mock')),
    );
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect(failure.message).toContain('repeats /v1');
  });
});
