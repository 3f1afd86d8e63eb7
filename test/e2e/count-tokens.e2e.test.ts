import Anthropic from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '../helpers/scripted-provider.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway({
    // A provider that cannot count: the gateway estimates.
    providers: { plain: createScriptedProvider(async function* () {}) },
    models: [
      { id: 'mock', provider: 'mock' },
      { id: 'plain', provider: 'plain' },
    ],
  });
});
afterAll(() => running.close());

const messages = [{ role: 'user' as const, content: 'How many tokens is this question?' }];

describe('POST /v1/messages/count_tokens', () => {
  it('should count with the provider, agreeing with the usage it reports, in both SDK lines', async () => {
    const latest = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const legacy = new Anthropic0({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const answered = await latest.messages.create({ model: 'mock', max_tokens: 100, messages });
    expect((await latest.messages.countTokens({ model: 'mock', messages })).input_tokens).toBe(answered.usage.input_tokens);
    expect((await legacy.messages.countTokens({ model: 'mock', messages })).input_tokens).toBe(answered.usage.input_tokens);
  });

  it('should estimate when the provider cannot count', async () => {
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const small = await client.messages.countTokens({ model: 'plain', messages });
    const large = await client.messages.countTokens({
      model: 'plain',
      system: 'Answer carefully. '.repeat(100),
      messages,
    });
    expect(small.input_tokens).toBeGreaterThan(5);
    expect(large.input_tokens - small.input_tokens).toBeGreaterThan(250);
  });

  it('should answer errors in the Anthropic shape', async () => {
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    await expect(client.messages.countTokens({ model: 'nope', messages })).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    const wrongKey = new Anthropic({ apiKey: 'wrong', baseURL: running.root, maxRetries: 0 });
    await expect(wrongKey.messages.countTokens({ model: 'mock', messages })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });
});
