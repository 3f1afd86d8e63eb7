import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENAI_PRICES } from '../../src/catalog/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

// Listing calls no upstream: the providers point at a closed loopback port.
const nowhere = 'http://127.0.0.1:9';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway({
    providers: {
      openai: { apiKey: 'sk-up', baseURL: `${nowhere}/v1` },
      'openai-responses': { apiKey: 'sk-up', baseURL: `${nowhere}/v1` },
      anthropic: { apiKey: 'sk-ant-up', baseURL: nowhere },
      gemini: { apiKey: 'g-up', baseURL: nowhere },
    },
    models: [
      { id: 'via-chat', provider: 'openai', upstreamModel: 'gpt-4.1-mini' },
      { id: 'via-responses', provider: 'openai-responses', upstreamModel: 'gpt-4.1-mini-2025-04-14' },
      { id: 'via-anthropic', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
      { id: 'via-gemini', provider: 'gemini', upstreamModel: 'models/gemini-2.5-pro' },
      {
        id: 'priced',
        provider: 'anthropic',
        upstreamModel: 'claude-sonnet-4-5',
        contextWindow: 100_000,
        price: { input: 1, output: 2 },
        capabilities: { reasoning: false },
      },
      { id: 'unknown', provider: 'openai', upstreamModel: 'my-fine-tune' },
      { id: 'mock', provider: 'mock' },
    ],
  });
});
afterAll(() => running.close());

type Listed = OpenAI.Models.Model & {
  context_window?: number;
  max_output_tokens?: number;
  capabilities: Record<string, unknown>;
  pricing?: Record<string, unknown>;
};

async function listed(): Promise<Map<string, Listed>> {
  const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
  const models = new Map<string, Listed>();
  for await (const model of client.models.list()) models.set(model.id, model as Listed);
  return models;
}

describe('GET /v1/models with the catalog', () => {
  it('should give the OpenAI SDK each model with its window, largest output, capabilities and prices', async () => {
    const models = await listed();
    expect([...models.keys()]).toEqual(['via-chat', 'via-responses', 'via-anthropic', 'via-gemini', 'priced', 'unknown', 'mock']);
    expect(models.get('via-responses')).toMatchObject({
      object: 'model',
      owned_by: 'openai-responses',
      context_window: 1_047_576,
      max_output_tokens: 32_768,
      capabilities: { reasoning: false, tools: true, images: true, audio: false, structured_output: true, hosted_tools: ['responses'] },
      pricing: {
        currency: 'USD',
        unit: 'per_million_tokens',
        input: 0.4,
        output: 1.6,
        cached_input: 0.1,
        source: `genai-prices@${GENAI_PRICES.version}`,
        version: `catalog:genai-prices@${GENAI_PRICES.version}:${GENAI_PRICES.publishedOn}`,
      },
    });
    expect(models.get('via-anthropic')?.pricing).toMatchObject({
      cache_write: 3.75,
      cache_write_1h: 6,
      tiers: [{ above_input_tokens: 200_000, input: 6, output: 22.5 }],
    });
    expect(models.get('via-anthropic')?.capabilities).toMatchObject({
      reasoning: true,
      reasoning_control: 'budget',
      hosted_tools: ['messages'],
    });
    expect(models.get('via-gemini')).toMatchObject({
      context_window: 1_048_576,
      max_output_tokens: 65_536,
      pricing: { tiers: [{ above_input_tokens: 200_000, input: 2.5 }] },
    });
  });

  it('should show the config over the catalog', async () => {
    const priced = (await listed()).get('priced');
    expect(priced).toMatchObject({
      context_window: 100_000,
      max_output_tokens: 64_000,
      capabilities: { reasoning: false },
      pricing: { input: 1, output: 2, source: 'config' },
    });
    expect(priced?.pricing).not.toHaveProperty('cache_write');
    expect(priced?.pricing?.version).toMatch(/^config:[0-9a-f]{12}$/);
  });

  it('should show what is not known as absent, never as 0', async () => {
    const models = await listed();
    for (const id of ['unknown', 'mock']) {
      expect(models.get(id)).not.toHaveProperty('context_window');
      expect(models.get(id)).not.toHaveProperty('max_output_tokens');
      expect(models.get(id)).not.toHaveProperty('pricing');
      expect(models.get(id)?.capabilities).toHaveProperty('streaming', true);
    }
  });

  it('should retrieve one model with the same fields', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    expect(await client.models.retrieve('via-chat')).toMatchObject({ id: 'via-chat', context_window: 1_047_576, pricing: { input: 0.4 } });
  });

  it('should give the Anthropic SDK display_name, created_at and the limits it knows', async () => {
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: running.root, maxRetries: 0 });
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    expect(models.map((model) => model.id)).toEqual([
      'via-chat',
      'via-responses',
      'via-anthropic',
      'via-gemini',
      'priced',
      'unknown',
      'mock',
    ]);
    const claude = models.find((model) => model.id === 'via-anthropic');
    expect(claude).toMatchObject({ type: 'model', display_name: 'via-anthropic', max_input_tokens: 200_000, max_tokens: 64_000 });
    expect(Number.isNaN(Date.parse(claude?.created_at ?? ''))).toBe(false);
    expect(models.find((model) => model.id === 'mock')).toMatchObject({ max_input_tokens: null, max_tokens: null });
    expect(await client.models.retrieve('via-gemini')).toMatchObject({ max_input_tokens: 1_048_576 });
  });
});
