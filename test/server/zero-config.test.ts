import { describe, expect, it } from 'vitest';
import { createZeroConfig, detectableProviders, unsetKeyReason } from '../../src/server/zero-config.js';

describe('createZeroConfig', () => {
  it('should serve only the mock model when no provider key is set', () => {
    const config = createZeroConfig({});
    expect(config.gateway.providers).toEqual({});
    expect(config.gateway.models).toEqual([{ id: 'mock', provider: 'mock' }]);
  });

  it("should list the models of each provider whose key is not set as unavailable, naming the key's variable", () => {
    const config = createZeroConfig({ ANTHROPIC_API_KEY: 'sk-a' });
    const unavailable = config.gateway.unavailableModels ?? [];
    expect(unavailable).toContainEqual({
      id: 'gpt-5.4-mini',
      reason: 'It is served when OPENAI_API_KEY is set; this server started without it.',
    });
    expect(unavailable).toContainEqual({ id: 'gemini-2.5-pro', reason: unsetKeyReason('GEMINI_API_KEY') });
    expect(unavailable.map((model) => model.id)).not.toContain('claude-sonnet-4-6');
    expect(
      createZeroConfig({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' }).gateway.unavailableModels,
    ).toBeUndefined();
  });

  it('should add each provider whose key is set, as a config object with its model list', () => {
    const config = createZeroConfig({ OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', GEMINI_API_KEY: 'g-1' });
    expect(config.gateway.providers).toEqual({ openai: { apiKey: 'sk-o' }, anthropic: { apiKey: 'sk-a' }, gemini: { apiKey: 'g-1' } });
    const ids = (config.gateway.models ?? []).map((model) => `${model.provider}/${model.id}`);
    expect(ids[0]).toBe('mock/mock');
    for (const detectable of detectableProviders) {
      for (const id of detectable.models) expect(ids).toContain(`${detectable.provider}/${id}`);
    }
  });

  it('should ignore a key that is empty or blank', () => {
    expect(createZeroConfig({ OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '  ' }).gateway.providers).toEqual({});
  });

  it('should add only the providers whose keys are set', () => {
    const config = createZeroConfig({ ANTHROPIC_API_KEY: 'sk-a' });
    expect(Object.keys(config.gateway.providers ?? {})).toEqual(['anthropic']);
    expect(new Set((config.gateway.models ?? []).map((model) => model.provider))).toEqual(new Set(['mock', 'anthropic']));
  });
});
