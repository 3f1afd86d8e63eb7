import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { startProtocolUpstream } from '../helpers/protocol-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let upstream: MockUpstream;
let running: RunningGateway;
let configured: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startProtocolUpstream();
  const providers = {
    openai: { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
    'openai-responses': { apiKey: 'sk-up', baseURL: `${upstream.url}/v1` },
    anthropic: { apiKey: 'sk-ant-up', baseURL: upstream.url },
  };
  running = await startGateway({
    providers,
    models: [
      { id: 'small-chat', provider: 'openai', upstreamModel: 'gpt-x', contextWindow: 1000 },
      { id: 'small-responses', provider: 'openai-responses', upstreamModel: 'gpt-x', contextWindow: 1000 },
      { id: 'small-claude', provider: 'anthropic', upstreamModel: 'claude-x', contextWindow: 1000 },
      { id: 'claude-limits', provider: 'anthropic', upstreamModel: 'claude-x', contextWindow: 200_000, maxOutputTokens: 8000 },
      { id: 'claude-tight', provider: 'anthropic', upstreamModel: 'claude-x', contextWindow: 3000, maxOutputTokens: 8000 },
      { id: 'claude-unknown', provider: 'anthropic', upstreamModel: 'claude-x' },
    ],
  });
  configured = await startGateway({
    providers: { anthropic: { ...providers.anthropic, defaultMaxTokens: 1000 } },
    models: [{ id: 'claude-limits', provider: 'anthropic', upstreamModel: 'claude-x', contextWindow: 200_000, maxOutputTokens: 8000 }],
  });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await configured.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** About 3000 tokens of English: over a 1000-token window by any tokenizer. */
const tooLong = 'The quick brown fox jumps over the lazy dog. '.repeat(300);
/** 990 tokens for o200k_base (" hello" is one token): under a 1000-token window, so never refused. */
const justUnder = ' hello'.repeat(990);

async function errorOf(call: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Record<string, unknown>;
}

describe("a request longer than the model's context window", () => {
  it("should get OpenAI's context_length_exceeded on Chat, before any upstream call", async () => {
    const error = await errorOf(() =>
      openai.chat.completions.create({ model: 'small-chat', messages: [{ role: 'user', content: tooLong }] }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', type: 'invalid_request_error', param: 'messages' });
    expect(String(error.message)).toMatch(/maximum context length is 1000 tokens\. However, your messages resulted in at least \d+ tokens/);
    expect(upstream.requests).toHaveLength(0);
  });

  it('should get the same on Responses', async () => {
    const error = await errorOf(() => openai.responses.create({ model: 'small-responses', input: tooLong }));
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', type: 'invalid_request_error', param: 'input' });
    expect(upstream.requests).toHaveLength(0);
  });

  it("should get Anthropic's prompt-too-long invalid_request_error on Messages, streamed or not", async () => {
    for (const stream of [false, true]) {
      const error = await errorOf(() =>
        anthropic.messages.create({ model: 'small-claude', max_tokens: 10, stream, messages: [{ role: 'user', content: tooLong }] }),
      );
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const body = (error as { error: { type: string; error: { type: string; message: string } } }).error;
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(/^prompt is too long: \d+ tokens > 1000 maximum$/);
      const tokens = Number(/(\d+) tokens/.exec(body.error.message)?.[1]);
      // A low count (o200k_base less 10%): never more than the tokens the text really has.
      expect(tokens).toBeGreaterThan(1000);
      expect(tokens).toBeLessThan(3000);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('should not refuse a request just under the window (the count is a low one)', async () => {
    const chat = await openai.chat.completions.create({ model: 'small-chat', messages: [{ role: 'user', content: justUnder }] });
    expect(chat.choices[0]?.message.content).toBe('ok');
    const message = await anthropic.messages.create({
      model: 'small-claude',
      max_tokens: 5,
      messages: [{ role: 'user', content: justUnder }],
    });
    expect(message.content).toEqual([expect.objectContaining({ text: 'ok' })]);
    expect(upstream.requests).toHaveLength(2);
  });
});

describe("the Anthropic provider's max_tokens when the caller sets none", () => {
  const sentMaxTokens = () => (upstream.requests.at(-1)?.body as { max_tokens: number }).max_tokens;

  it("should be the model's largest output", async () => {
    await openai.chat.completions.create({ model: 'claude-limits', messages: [{ role: 'user', content: 'Hi' }] });
    expect(sentMaxTokens()).toBe(8000);
  });

  it('should be capped by what remains of the window after the input, counted high', async () => {
    // ~1000 tokens of input in a 3000 window: room for well under 2000, more than nothing.
    await openai.responses.create({ model: 'claude-tight', input: ' hello'.repeat(1000) });
    expect(sentMaxTokens()).toBeGreaterThan(1000);
    expect(sentMaxTokens()).toBeLessThanOrEqual(2000);
  });

  it('should stay 4096 for a model whose limits are unknown, and follow the caller when it sets one', async () => {
    await openai.chat.completions.create({ model: 'claude-unknown', messages: [{ role: 'user', content: 'Hi' }] });
    expect(sentMaxTokens()).toBe(4096);
    await openai.chat.completions.create({
      model: 'claude-limits',
      max_completion_tokens: 123,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(sentMaxTokens()).toBe(123);
  });

  it("should let the provider's defaultMaxTokens option win", async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: configured.openAIBaseURL, maxRetries: 0 });
    await client.chat.completions.create({ model: 'claude-limits', messages: [{ role: 'user', content: 'Hi' }] });
    expect(sentMaxTokens()).toBe(1000);
  });
});
