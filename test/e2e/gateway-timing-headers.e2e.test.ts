import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../helpers/scripted-provider.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  running = await startGateway({ models: [{ id: 'small', provider: 'mock', upstreamModel: 'mock-small' }] });
  openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
});
afterAll(async () => {
  await running.close();
  await running.gateway.close();
});

/** The overhead header as a number, after checking it is one. */
function overheadOf(headers: Headers): number {
  const value = headers.get('x-switchyard-overhead-ms');
  expect(value).toMatch(/^\d+(\.\d+)?$/);
  return Number(value);
}

const messages = [{ role: 'user' as const, content: 'Hello' }];

describe('the overhead and deployment headers', () => {
  it('should be on a Chat answer, streamed and not', async () => {
    const plain = await openai.chat.completions.create({ model: 'small', messages }).withResponse();
    expect(plain.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    expect(overheadOf(plain.response.headers)).toBeGreaterThanOrEqual(0);

    const streamed = await openai.chat.completions.create({ model: 'small', messages, stream: true }).withResponse();
    for await (const chunk of streamed.data) void chunk;
    expect(streamed.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    overheadOf(streamed.response.headers);
  });

  it('should be on a Responses answer, streamed and not', async () => {
    const plain = await openai.responses.create({ model: 'small', input: 'Hello' }).withResponse();
    expect(plain.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    overheadOf(plain.response.headers);

    const streamed = await openai.responses.create({ model: 'small', input: 'Hello', stream: true }).withResponse();
    for await (const event of streamed.data) void event;
    expect(streamed.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    overheadOf(streamed.response.headers);
  });

  it('should be on a Messages answer, streamed and not', async () => {
    const plain = await anthropic.messages.create({ model: 'small', max_tokens: 64, messages }).withResponse();
    expect(plain.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    overheadOf(plain.response.headers);

    const streamed = await anthropic.messages.create({ model: 'small', max_tokens: 64, messages, stream: true }).withResponse();
    for await (const event of streamed.data) void event;
    expect(streamed.response.headers.get('x-switchyard-deployment')).toBe('mock/mock-small');
    overheadOf(streamed.response.headers);
  });

  it('should carry the overhead, but no deployment, on an error answered before any upstream call', async () => {
    const error = await openai.chat.completions.create({ model: 'missing', messages }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    const { headers } = error as InstanceType<typeof OpenAI.NotFoundError>;
    expect(headers.get('x-switchyard-overhead-ms')).toMatch(/^\d+(\.\d+)?$/);
    expect(headers.get('x-switchyard-deployment')).toBeNull();
  });

  it("should not count the upstream's own wait as overhead", async () => {
    const upstreamWaitMs = 600;
    const slow = createScriptedProvider(async function* () {
      await new Promise((resolve) => setTimeout(resolve, upstreamWaitMs));
      yield { type: 'start', id: 'msg_1', model: 'slow-1' };
      yield { type: 'text-start', id: 't' };
      yield { type: 'text-delta', id: 't', delta: 'late' };
      yield { type: 'text-end', id: 't' };
      yield { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: 1, outputTokens: 1 } };
    });
    const slowGateway = await startGateway({ providers: { slow }, models: [{ id: 'slow', provider: 'slow' }] });
    try {
      const client = new OpenAI({ apiKey: TEST_KEY, baseURL: slowGateway.openAIBaseURL, maxRetries: 0 });
      const started = Date.now();
      const streamed = await client.chat.completions.create({ model: 'slow', messages, stream: true }).withResponse();
      for await (const chunk of streamed.data) void chunk;
      expect(Date.now() - started).toBeGreaterThanOrEqual(upstreamWaitMs - 5);
      expect(streamed.response.headers.get('x-switchyard-deployment')).toBe('slow/slow');
      // The headers came after the upstream's wait; the overhead leaves it out.
      expect(overheadOf(streamed.response.headers)).toBeLessThan(upstreamWaitMs / 2);
    } finally {
      await slowGateway.close();
      await slowGateway.gateway.close();
    }
  });
});
