import { describe, expect, it } from 'vitest';
import { allCapabilities } from '../../src/providers/all-capabilities.js';
import { createProviderFromConfig } from '../../src/providers/create-provider.js';
import { createMockProvider } from '../../src/providers/mock/index.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { createModelTable } from '../../src/routing/create-model-table.js';
import type { RoutedModelOptions } from '../../src/routing/routed-model-options.js';

const providers: Record<string, ProviderAdapter> = {
  mock: createMockProvider(),
  openai: createProviderFromConfig('openai', { apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
  responses: createProviderFromConfig('responses', { type: 'openai-responses', apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1' }),
  anthropic: createProviderFromConfig('anthropic', { apiKey: 'sk-ant-test', baseURL: 'http://127.0.0.1:9' }),
  gemini: createProviderFromConfig('gemini', { apiKey: 'g-test', baseURL: 'http://127.0.0.1:9' }),
  vllm: createProviderFromConfig('vllm', { type: 'openai-compatible', profile: 'vllm' }),
};

const resolve = (config: RoutedModelOptions) => createModelTable([config], providers).list[0]!;

describe('models resolved with the catalog', () => {
  it('should take the window, largest output, price and capabilities of a known upstream model', () => {
    const model = resolve({ id: 'via-responses', provider: 'responses', upstreamModel: 'gpt-4.1-mini-2025-04-14' });
    expect(model).toMatchObject({ catalogId: 'gpt-4.1-mini', contextWindow: 1_047_576, maxOutputTokens: 32_768 });
    // The adapter would accept reasoning for any model; the catalog knows gpt-4.1-mini does not reason.
    expect(model.capabilities.reasoning).toBe(false);
    // What the route carries stays the adapter's: Responses hosted tools, no audio input.
    expect(model.capabilities.providerTools).toEqual(['responses']);
    expect(model.capabilities.audio).toBe(false);
    expect(model.price).toMatchObject({
      price: { input: 0.4, output: 1.6, cachedInput: 0.1 },
      source: expect.stringMatching(/^genai-prices@/),
      version: expect.stringMatching(/^catalog:genai-prices@/),
    });
  });

  it('should know Claude and Gemini ids through their providers', () => {
    expect(resolve({ id: 'c', provider: 'anthropic', upstreamModel: 'claude-sonnet-4-5-20250929' })).toMatchObject({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      reasoningControl: 'budget',
    });
    const gemini = resolve({ id: 'g', provider: 'gemini', upstreamModel: 'models/gemini-2.0-flash' });
    expect(gemini).toMatchObject({ contextWindow: 1_048_576, maxOutputTokens: 8_192 });
    expect(gemini.capabilities.reasoning).toBe(false);
  });

  it('should let the config win over the catalog, field by field', () => {
    const model = resolve({
      id: 'mini',
      provider: 'openai',
      upstreamModel: 'gpt-4.1-mini',
      contextWindow: 64_000,
      maxOutputTokens: 1_000,
      capabilities: { reasoning: true, images: false },
      price: { input: 1, output: 2 },
    });
    expect(model).toMatchObject({ contextWindow: 64_000, maxOutputTokens: 1_000 });
    expect(model.capabilities).toMatchObject({ reasoning: true, images: false, files: true });
    expect(model.price).toMatchObject({ price: { input: 1, output: 2 }, source: 'config', version: expect.stringMatching(/^config:/) });
  });

  it('should leave an unknown model exactly as its adapter describes it', () => {
    const model = resolve({ id: 'mine', provider: 'openai', upstreamModel: 'my-fine-tune' });
    expect(model.capabilities).toEqual({ ...allCapabilities, ...providers.openai!.capabilities!('my-fine-tune') });
    expect(model.contextWindow).toBeUndefined();
    expect(model.maxOutputTokens).toBeUndefined();
    expect(model.price).toBeUndefined();
    expect(model.catalogId).toBeUndefined();
  });

  it('should not apply the catalog to the mock provider, whatever the model is called', () => {
    const model = resolve({ id: 'gpt-4.1-mini', provider: 'mock' });
    expect(model.capabilities).toEqual(providers.mock!.capabilities!('gpt-4.1-mini'));
    expect(model.capabilities.reasoning).toBe(true);
    expect(model.contextWindow).toBeUndefined();
    expect(model.price).toBeUndefined();
  });

  it('should know open models on a server you run, with no price', () => {
    const model = resolve({ id: 'local', provider: 'vllm', upstreamModel: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(model).toMatchObject({ contextWindow: 131_072, catalogId: 'llama-3' });
    expect(model.capabilities).toMatchObject({ images: false, reasoning: false, tools: true });
    expect(model.price).toBeUndefined();
  });
});
