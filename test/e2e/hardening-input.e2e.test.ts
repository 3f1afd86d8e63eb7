// What a hostile caller can no longer do with sizes it controls: a huge model id that stalled the
// event loop and came back whole in the 404, and JSON nested thousands of levels deep that broke
// serialisation into a 500 or a misleading 502.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Anthropic from '@anthropic-ai/sdk';
import express from 'express';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/providers/openai-compatible/index.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let upstream: MockUpstream;
let running: RunningGateway;

beforeAll(async () => {
  upstream = await startMockUpstream();
  running = await startGateway({
    providers: {
      chat: createOpenAICompatibleProvider({ id: 'chat', baseURL: `${upstream.url}/v1`, apiKey: 'sk-upstream-0123456789abcdef' }),
    },
    models: [
      { id: 'via-chat', provider: 'chat', upstreamModel: 'm' },
      { id: 'mock', provider: 'mock' },
    ],
  });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.root}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as { error: { message: string; type: string; code?: string; param?: string } },
  };
}

/** `{"a":{"a":…}}`, `depth` levels of objects. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('a huge model id', () => {
  it('should get a 404 that quotes only the start of it, without stalling other requests', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const model = `gpt-${'x'.repeat(16 * 1024 * 1024)}`;
    const answer = await post('/v1/chat/completions', JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }));
    delay.disable();
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('model_not_found');
    expect(answer.body.error.message.length).toBeLessThan(400);
    expect(answer.body.error.message).toContain('characters)');
    // Parsing 16 MB of JSON takes tens of milliseconds; the edit distance over it took seconds.
    expect(delay.max / 1e6).toBeLessThan(1_500);
  });
});

describe('deep nesting', () => {
  it('should refuse an unknown field nested 5,000 levels deep with a 400 naming it, on a real provider (never called)', async () => {
    const body = `{"model":"via-chat","messages":[{"role":"user","content":"Hi"}],"extra_field":${nested(5_000)}}`;
    const answer = await post('/v1/chat/completions', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.type).toBe('invalid_request_error');
    expect(answer.body.error.param).toBe('extra_field');
    expect(answer.body.error.message).toContain("in 'extra_field'");
    expect(upstream.requests).toHaveLength(0);
  });

  it("should refuse a tool's parameters nested deep on the mock model, in each protocol's shape", async () => {
    const tools = `[{"type":"function","function":{"name":"f","parameters":${nested(3_000)}}}]`;
    const chat = await post('/v1/chat/completions', `{"model":"mock","messages":[{"role":"user","content":"Hi"}],"tools":${tools}}`);
    expect(chat.status).toBe(400);
    expect(chat.body.error.param).toBe('tools');

    const messages = await post(
      '/v1/messages',
      `{"model":"mock","max_tokens":5,"messages":[{"role":"user","content":"Hi"}],"tools":[{"name":"f","input_schema":${nested(3_000)}}]}`,
    );
    expect(messages.status).toBe(400);
    expect(messages.body.error.type).toBe('invalid_request_error');
    expect(messages.body.error.message).toContain("in 'tools'");
  });

  it('should still accept ordinary nesting (a tool schema a dozen levels deep) and reach the provider', async () => {
    upstream.reply({
      json: {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      },
    });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const parameters = JSON.parse(`{"type":"object","properties":{"p":${nested(12)}}}`) as Record<string, unknown>;
    const completion = await client.chat.completions.create({
      model: 'via-chat',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters } }],
    });
    expect(completion.choices[0]?.message.content).toBe('ok');
    expect(upstream.requests).toHaveLength(1);
  });

  it("should refuse deep nesting in a body a host app's JSON parser already read", async () => {
    const app = await startGateway({ models: [{ id: 'mock', provider: 'mock' }] }, '/', (host) =>
      host.use(express.json({ limit: '10mb' })),
    );
    try {
      const client = new Anthropic({ apiKey: TEST_KEY, baseURL: app.root, maxRetries: 0 });
      const deep = JSON.parse(nested(500)) as Record<string, unknown>;
      const failure = await client.messages
        .create({ model: 'mock', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }], metadata: deep } as Parameters<
          typeof client.messages.create
        >[0])
        .then(
          () => expect.unreachable(),
          (error: unknown) => error as InstanceType<typeof Anthropic.APIError>,
        );
      expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
      expect(failure.message).toContain("in 'metadata'");
    } finally {
      await app.close();
      await app.gateway.close();
    }
  });
});
