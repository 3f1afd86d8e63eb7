// What a broken or hostile upstream can no longer do to a caller: oversized answers, error text that
// carries the gateway's provider key or internal addresses, a 401 that blames the caller's key, and
// a failure before any content that is a 200 on one upstream and a retryable status on another.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repeatedErrorLogOf } from '../../src/pipeline/repeated-error-log.js';
import type { Logger } from '../../src/logger.js';
import { createAnthropicProvider } from '../../src/providers/anthropic/index.js';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { chunkLinesFixture } from '../helpers/fixtures.js';
import { sseText, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const OPENAI_KEY = 'sk-proj-upstreamsecret0123456789abcdef';
const ANTHROPIC_KEY = 'sk-ant-api03-upstreamsecret0123456789abcdef';
const MAX_ANSWER = 64 * 1024;

let upstream: MockUpstream;
let running: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;
const logLines: string[] = [];
const logger: Logger = {
  debug() {},
  info() {},
  warn: (object, message) => void logLines.push(JSON.stringify({ ...object, msg: message })),
  error: (object, message) => void logLines.push(JSON.stringify({ ...object, msg: message })),
};

beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    logger,
    // What the clients see of each upstream failure, and what their own retries do: the gateway's are off.
    retries: { attempts: 0 },
    providers: {
      chat: createOpenAICompatibleProvider({ id: 'chat', baseURL: `${upstream.url}/v1`, apiKey: OPENAI_KEY, maxAnswerBytes: MAX_ANSWER }),
      anthropic: createAnthropicProvider({ apiKey: ANTHROPIC_KEY, baseURL: upstream.url, maxAnswerBytes: MAX_ANSWER }),
    },
    models: [
      { id: 'via-chat', provider: 'chat', upstreamModel: 'm' },
      { id: 'claude', provider: 'anthropic', upstreamModel: 'claude-x' },
    ],
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
  logLines.length = 0;
});

const chat = { model: 'via-chat', messages: [{ role: 'user' as const, content: 'Hi' }] };
const hello = { model: 'claude', max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }] };
const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => expect.unreachable('the call should fail'),
    (error: unknown) => error as Error & { status?: number; error?: unknown },
  );

describe('upstream answer size', () => {
  it("should answer a non-streamed answer over maxAnswerBytes with a 502 in the caller's shape", async () => {
    upstream.reply({
      json: {
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'a'.repeat(MAX_ANSWER * 3) }, finish_reason: 'stop' }],
      },
    });
    const failure = await failureOf(openai.chat.completions.create(chat));
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure.status).toBe(502);
    expect(failure.message).toContain('larger than this gateway accepts');
  });

  it('should fail a stream whose one event outgrows maxAnswerBytes, before any output, with a 502', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    };
    upstream.reply({
      sse: `${sseText([{ event: 'message_start', data: start }])}event: content_block_start\ndata: {"pad":"${'b'.repeat(MAX_ANSWER * 2)}`,
      chunkBytes: 16 * 1024,
    });
    const failure = await failureOf(anthropic.messages.create({ ...hello, stream: true }));
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure.status).toBe(502);
  });

  it('should keep an 8 MB error body out of the message and the log line', async () => {
    upstream.reply({ status: 500, sse: `Internal failure ${'x'.repeat(8 * 1024 * 1024)}` });
    const failure = await failureOf(openai.chat.completions.create(chat));
    expect(failure.status).toBe(500);
    expect(failure.message.length).toBeLessThan(2_100);
    expect(failure.message).toContain('Internal failure');
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line.length).toBeLessThan(3_000);
  });
});

describe('upstream error text', () => {
  it("should mask the gateway's provider key when the upstream echoes it, and any key-shaped text", async () => {
    upstream.reply({
      status: 400,
      json: {
        error: {
          message: `Incorrect API key provided: Bearer ${OPENAI_KEY}; also tried sk-othersecretvalue0123456789`,
          type: 'invalid_request_error',
        },
      },
    });
    const failure = await failureOf(openai.chat.completions.create(chat));
    expect(failure.status).toBe(400);
    expect(failure.message).not.toContain(OPENAI_KEY);
    expect(failure.message).not.toContain('upstreamsecret');
    expect(failure.message).not.toContain('sk-othersecretvalue');
    expect(failure.message).toContain('[redacted]');
    expect(logLines.join('\n')).not.toContain('upstreamsecret');
  });

  it('should mask the key inside an in-band stream error too', async () => {
    const lines = chunkLinesFixture('messages', 'upstream-text');
    const frames = lines
      .slice(0, 4)
      .map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown }));
    frames.push({
      event: 'error',
      data: { type: 'error', error: { type: 'api_error', message: `key ${ANTHROPIC_KEY} at http://10.20.30.40:8080/v1 failed` } },
    });
    upstream.reply({ sse: sseText(frames) });
    const failure = await failureOf(anthropic.messages.stream(hello).finalMessage());
    expect(failure.message).not.toContain('upstreamsecret');
    expect(failure.message).not.toContain('10.20.30.40');
  });

  it("should replace the provider's address and private URLs with the provider's name", async () => {
    const { port } = new URL(upstream.url);
    upstream.reply({
      status: 503,
      json: { error: { message: `upstream connect error to ${upstream.url}/v1 via http://192.168.7.7:9000/pool (127.0.0.1:${port})` } },
    });
    const failure = await failureOf(openai.chat.completions.create(chat));
    expect(failure.status).toBe(503);
    expect(failure.message).not.toContain(upstream.url);
    expect(failure.message).not.toContain('192.168.7.7');
    expect(failure.message).not.toContain(`127.0.0.1:${port}`);
    expect(failure.message).toContain('chat');
  });

  it('should say why a provider could not be reached, without its address', async () => {
    const dead = await startGateway({
      providers: { chat: createOpenAICompatibleProvider({ id: 'chat', baseURL: 'http://127.0.0.1:1/v1', apiKey: OPENAI_KEY }) },
      models: [{ id: 'via-chat', provider: 'chat', upstreamModel: 'm' }],
    });
    try {
      const client = new OpenAI({ apiKey: TEST_KEY, baseURL: dead.openAIBaseURL, maxRetries: 0 });
      const failure = await failureOf(client.chat.completions.create(chat));
      expect(failure.status).toBe(502);
      expect(failure.message).toContain('connection was refused');
      expect(failure.message).not.toContain('127.0.0.1:1');
    } finally {
      await dead.close();
      await dead.gateway.close();
    }
  });
});

describe("an upstream that refuses the gateway's own credentials", () => {
  it('should reach an Anthropic client as a 502 api_error, never authentication_error', async () => {
    upstream.reply({ status: 401, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const failure = await failureOf(anthropic.messages.create(hello));
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(failure).not.toBeInstanceOf(Anthropic.AuthenticationError);
    expect(failure.status).toBe(502);
    expect((failure.error as { error?: { type?: string } }).error?.type).toBe('api_error');
    expect(failure.message).toContain("refused the gateway's credentials");
  });

  it('should reach an OpenAI client from a 403 as a 502, not a permission error', async () => {
    upstream.reply({ status: 403, json: { error: { message: 'Project does not have access to model m', type: 'invalid_request_error' } } });
    const failure = await failureOf(openai.chat.completions.create(chat));
    expect(failure).not.toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(failure.status).toBe(502);
    expect(failure.message).toContain('does not have access');
  });
});

describe('a failure before any content, on every upstream', () => {
  const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
  const anthropicOpening = () => {
    const lines = chunkLinesFixture('messages', 'upstream-text');
    // message_start and content_block_start (an empty text block), then the failure: no text yet.
    return [
      ...lines.slice(0, 2).map((line) => ({ event: (JSON.parse(line) as { type: string }).type, data: JSON.parse(line) as unknown })),
      { event: 'error', data: overloaded },
    ];
  };

  it('should give a Messages caller of an Anthropic upstream a retryable status, retried by the SDK', async () => {
    upstream.reply({ sse: sseText(anthropicOpening()) });
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 2 });
    const failure = await failureOf(client.messages.create({ ...hello, stream: true }));
    expect(failure.status).toBe(529);
    expect(upstream.requests).toHaveLength(3);
  });

  it('should give a Chat caller of an Anthropic upstream the same, as a Chat caller of a Chat upstream gets', async () => {
    upstream.reply({ sse: sseText(anthropicOpening()) });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 2 });
    // Chat has no 529: an overloaded provider is a 503 there, on both upstreams.
    const failure = await failureOf(client.chat.completions.create({ ...chat, model: 'claude', stream: true }));
    expect(failure.status).toBe(503);
    expect(upstream.requests).toHaveLength(3);

    upstream.requests.length = 0;
    const role = {
      id: 'c',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    };
    upstream.reply({ sse: sseText([{ data: role }, { data: { error: { message: 'Overloaded', code: 529 } } }]) });
    const chatFailure = await failureOf(client.chat.completions.create({ ...chat, stream: true }));
    expect(chatFailure.status).toBe(503);
    expect(upstream.requests).toHaveLength(3);
  });
});

describe('an upstream error storm', () => {
  it('should log one line per distinct failure and then a count, not a line per request', async () => {
    repeatedErrorLogOf(logger).flush();
    logLines.length = 0;
    upstream.reply({ status: 503, json: { error: { message: 'Service temporarily unavailable' } } });
    const failures = await Promise.all(Array.from({ length: 40 }, () => failureOf(openai.chat.completions.create(chat))));
    expect(failures.every((failure) => failure.status === 503)).toBe(true);
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).toContain('Service temporarily unavailable');
    repeatedErrorLogOf(logger).flush();
    expect(logLines).toHaveLength(2);
    expect(JSON.parse(logLines[1]!)).toMatchObject({ repeated: 39, msg: expect.stringContaining('repeated 39 more times') });
  });
});
