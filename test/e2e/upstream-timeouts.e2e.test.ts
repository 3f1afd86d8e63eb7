import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { chatFrames, messagesFrames, responsesFrames, startTimedUpstream, type TimedUpstream } from '../helpers/timed-upstream.js';

// Timeouts before the first byte reached the client: a 504 in the caller's protocol, naming the
// limit, and the upstream connection closed. The failover window is long here, so nothing commits.

let upstream: TimedUpstream;
let running: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startTimedUpstream();
  running = await startGateway({
    providers: {
      oa: { type: 'openai', apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` },
      single: { type: 'openai', apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1`, maxConnections: 1 },
      an: { type: 'anthropic', apiKey: 'sk-upstream', baseURL: upstream.url },
      rs: { type: 'openai-responses', apiKey: 'sk-upstream', baseURL: `${upstream.url}/v1` },
    },
    models: [
      { id: 'chat-model', provider: 'oa' },
      { id: 'claude-model', provider: 'an' },
      { id: 'responses-model', provider: 'rs' },
      { id: 'short-total', provider: 'oa', timeouts: { totalMs: 300 } },
      { id: 'one-connection', provider: 'single', timeouts: { connectMs: 200, firstTokenMs: 5_000 } },
    ],
    timeouts: { firstTokenMs: 300, idleMs: 300, failoverWindowMs: 10_000, keepAliveMs: 100 },
    // Each upstream answer here is scripted once: what a client sees of a timeout, not a retry after it.
    retries: { attempts: 0 },
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});

let closedBefore = 0;
beforeEach(() => {
  closedBefore = upstream.closedEarly;
});

const chatStream = (model = 'chat-model') =>
  openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Hi' }] });
const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have failed'),
    (error: unknown) => error,
  );

describe('a timeout before the first byte reached the client', () => {
  it('should answer a hang before headers with a 504 naming the first-token limit, and close the upstream', async () => {
    upstream.script([{ hang: true }]);
    const error = await errorOf(chatStream());
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(504);
    expect(apiError.code).toBe('upstream_first_token_timeout');
    expect(apiError.message).toMatch(/chat-model.*wrote nothing within 0\.3 s/);
    expect(apiError.headers?.get('x-should-retry')).toBe('true');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should answer a hang after the headers (Messages, passed through) with a Messages 504 timeout_error', async () => {
    upstream.script([{ headers: true }, { write: messagesFrames.opening }, { hang: true }]);
    const error = await errorOf(
      anthropic.messages.create({ model: 'claude-model', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(504);
    expect((apiError.error as { error: { type: string } }).error.type).toBe('timeout_error');
    expect(apiError.message).toContain('timeouts.firstTokenMs');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should answer a hang after the headers (Responses, passed through) with a Responses 504', async () => {
    upstream.script([{ headers: true }, { write: responsesFrames().opening }, { hang: true }]);
    const error = await errorOf(openai.responses.create({ model: 'responses-model', input: 'Hi', stream: true }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_first_token_timeout');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should end a non-streamed call at its total limit with a 504', async () => {
    upstream.script([{ hang: true }]);
    const error = await errorOf(openai.chat.completions.create({ model: 'short-total', messages: [{ role: 'user', content: 'Hi' }] }));
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_total_timeout');
    // Not retryable: the time budget is spent.
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should give a call that gets no connection its connect timeout', async () => {
    upstream.script([{ hang: true }]);
    const first = new AbortController();
    // Holds the provider's only connection.
    const holding = openai.chat.completions
      .create({ model: 'one-connection', stream: true, messages: [{ role: 'user', content: 'Hi' }] }, { signal: first.signal })
      .catch(() => undefined);
    const requestsBefore = upstream.requests;
    while (upstream.requests === requestsBefore) await new Promise((resolve) => setTimeout(resolve, 10));

    const error = await errorOf(chatStream('one-connection'));

    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_connect_timeout');
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain("provider 'single'");
    first.abort();
    await holding;
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });
});

describe('a stream that began', () => {
  it('should end a stream gone quiet mid-way with the in-band error naming the idle limit, and close the upstream', async () => {
    upstream.script([{ headers: true }, { write: chatFrames.opening + chatFrames.deltas('Hello') }, { hang: true }]);
    const stream = await chatStream();
    const pieces: string[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta.content ?? '');
    })().then(
      () => expect.unreachable('should have failed'),
      (error: unknown) => error,
    );
    expect(pieces.join('')).toBe('Hello');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('timeouts.idleMs');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should end a quiet Messages stream with event: error after its text', async () => {
    upstream.script([{ headers: true }, { write: messagesFrames.opening + messagesFrames.deltas('Hel') }, { hang: true }]);
    const stream = await anthropic.messages.create({
      model: 'claude-model',
      max_tokens: 50,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    const failure = await (async () => {
      for await (const event of stream)
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    })().then(
      () => expect.unreachable('should have failed'),
      (error: unknown) => error,
    );
    expect(text).toBe('Hel');
    expect((failure as Error).message).toContain('timeout_error');
    await upstream.closedEarlyAtLeast(closedBefore + 1);
  });

  it('should let a slow drip that stays under the idle limit finish', async () => {
    const pieces = ['a', 'b', 'c', 'd', 'e', 'f'];
    // Six gaps of 150 ms: longer than the idle limit in total, never in one gap.
    upstream.script([
      { headers: true },
      { write: chatFrames.opening },
      ...pieces.flatMap((piece) => [{ waitMs: 150 }, { write: chatFrames.deltas(piece) }]),
      { write: chatFrames.closing },
    ]);
    const stream = await chatStream();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('abcdef');
    expect(upstream.closedEarly).toBe(closedBefore);
  });
});
