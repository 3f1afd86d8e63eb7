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

describe('POST /v1/messages/count_tokens runs the checks a generation request does', () => {
  let checked: RunningGateway;
  let client: Anthropic;
  beforeAll(async () => {
    checked = await startGateway({
      providers: { plain: createScriptedProvider(async function* () {}) },
      requestPolicy: { anthropicBetas: { 'risky-beta': 'refuse' } },
      models: [
        { id: 'text-only', provider: 'plain', capabilities: { images: false, reasoning: false } },
        { id: 'open', provider: 'plain' },
      ],
    });
    client = new Anthropic({ apiKey: TEST_KEY, baseURL: checked.root, maxRetries: 0 });
  });
  afterAll(() => checked.close());

  const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' } };

  it('should refuse what the request policy refuses, as generation does', async () => {
    const risky = { headers: { 'anthropic-beta': 'risky-beta' } };
    const counted = await client.messages.countTokens({ model: 'open', messages }, risky).catch((error: unknown) => error);
    expect(counted).toBeInstanceOf(Anthropic.BadRequestError);
    const generated = await client.messages.create({ model: 'open', max_tokens: 10, messages }, risky).catch((error: unknown) => error);
    const withoutId = (error: unknown) => (error as Error).message.replace(/req_[0-9a-f]+/, 'req_');
    expect(withoutId(counted)).toBe(withoutId(generated));
    expect(withoutId(counted)).toContain('risky-beta');
  });

  it('should refuse what the model cannot carry (the capability check)', async () => {
    const error = await client.messages
      .countTokens({ model: 'text-only', messages: [{ role: 'user', content: [image, { type: 'text', text: 'What is this?' }] }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/image/i);
    expect(
      (
        await client.messages.countTokens({
          model: 'open',
          messages: [{ role: 'user', content: [image, { type: 'text', text: 'What is this?' }] }],
        })
      ).input_tokens,
    ).toBeGreaterThan(0);
  });

  it('should leave out what the adapt policy leaves out, and say so', async () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
    const { data, response } = await client.messages.countTokens({ model: 'text-only', messages, thinking }).withResponse();
    expect(data.input_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-switchyard-adapted')).toBe('reasoning');
  });
});
