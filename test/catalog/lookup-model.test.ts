import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENAI_PRICES, lookupModel } from '../../src/catalog/index.js';

describe('lookupModel', () => {
  it.each([
    ['openai', 'gpt-4.1-mini'],
    ['openai', 'gpt-4.1-mini-2025-04-14'],
    ['openai', 'openai/gpt-4.1-mini'],
    ['openai', 'GPT-4.1-mini'],
  ])('should know %s %s as gpt-4.1-mini', (host, id) => {
    const model = lookupModel(host, id);
    expect(model).toMatchObject({
      id: 'gpt-4.1-mini',
      contextWindow: 1_047_576,
      maxOutputTokens: 32_768,
      capabilities: { reasoning: false, images: true },
    });
    expect(model?.price?.price).toEqual({ input: 0.4, output: 1.6, cachedInput: 0.1 });
  });

  it.each([['claude-sonnet-4-5'], ['claude-sonnet-4-5-20250929'], ['anthropic/claude-sonnet-4-5']])(
    'should know the Anthropic id %s',
    (id) => {
      const model = lookupModel('anthropic', id);
      expect(model).toMatchObject({ id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, reasoningControl: 'budget' });
      expect(model?.capabilities).toMatchObject({ reasoning: true, audio: false });
      expect(model?.price?.price).toMatchObject({ input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 });
      expect(model?.price?.price.tiers).toEqual([
        { aboveInputTokens: 200_000, input: 6, output: 22.5, cachedInput: 0.6, cacheWrite: 7.5, cacheWrite1h: 12 },
      ]);
    },
  );

  it.each([['gemini-2.5-pro'], ['models/gemini-2.5-pro']])('should know the Gemini id %s with its tier above 200k', (id) => {
    const model = lookupModel('google', id);
    expect(model).toMatchObject({
      id: 'gemini-2.5-pro',
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
      capabilities: { reasoning: true, audio: true },
    });
    expect(model?.price?.price).toEqual({
      input: 1.25,
      output: 10,
      cachedInput: 0.125,
      tiers: [{ aboveInputTokens: 200_000, input: 2.5, output: 15, cachedInput: 0.25 }],
    });
  });

  it('should say where each price comes from and since when', () => {
    const undated = lookupModel('openai', 'gpt-4.1-mini')?.price;
    expect(undated).toMatchObject({
      source: `genai-prices@${GENAI_PRICES.version}`,
      asOf: GENAI_PRICES.publishedOn,
      version: `catalog:genai-prices@${GENAI_PRICES.version}:${GENAI_PRICES.publishedOn}`,
    });
    expect(undated?.sourceUrl).toMatch(/^https:\/\/.*openai\.com/);
    expect(undated?.effectiveFrom).toBeUndefined();
    // genai-prices dates the price Claude Opus 4.6 has had since 2026-03-13.
    const dated = lookupModel('anthropic', 'claude-opus-4-6')?.price;
    expect(dated).toMatchObject({ effectiveFrom: '2026-03-13', version: `catalog:genai-prices@${GENAI_PRICES.version}:2026-03-13` });
    // Before that day, the price before it.
    expect(lookupModel('anthropic', 'claude-opus-4-6', new Date('2026-01-01'))?.price?.effectiveFrom).toBeUndefined();
  });

  it('should take a price the source lacks from the curated layer: reasoning priced apart', () => {
    const model = lookupModel('google', 'gemini-2.5-flash-preview-05-20');
    expect(model?.price).toMatchObject({
      source: 'curated',
      effectiveFrom: '2025-04-17',
      version: 'catalog:curated:2025-04-17',
      price: { input: 0.15, output: 0.6, reasoning: 3.5 },
    });
  });

  it('should price time-of-day discounted models at their standard price', () => {
    for (const hour of ['03:00', '20:00']) {
      expect(lookupModel('deepseek', 'deepseek-chat', new Date(`2026-10-01T${hour}:00Z`))?.price?.price.input).toBe(0.27);
    }
  });

  it('should know open models on hosts with the host price, and on your own server without one', () => {
    expect(lookupModel('groq', 'openai/gpt-oss-120b')).toMatchObject({
      contextWindow: 131_072,
      reasoningControl: 'effort',
      capabilities: { reasoning: true, images: false },
    });
    expect(lookupModel('groq', 'openai/gpt-oss-120b')?.price?.price.input).toBeGreaterThan(0);
    const local = lookupModel('open-models', 'llama3.2:3b');
    expect(local).toMatchObject({ id: 'llama-3', contextWindow: 131_072, capabilities: { tools: true, images: false, reasoning: false } });
    expect(local?.price).toBeUndefined();
    expect(lookupModel('open-models', 'Qwen/Qwen3-32B')).toMatchObject({ capabilities: { reasoning: true }, reasoningControl: 'switch' });
    expect(lookupModel('together', 'meta-llama/Llama-3.3-70B-Instruct-Turbo')?.price?.price).toMatchObject({ input: 0.88, output: 0.88 });
  });

  it('should know nothing of an unknown model or host', () => {
    expect(lookupModel('openai', 'my-fine-model')).toBeUndefined();
    expect(lookupModel('open-models', 'my-own-model')).toBeUndefined();
    expect(lookupModel('mock', 'gpt-4.1-mini')).toBeUndefined();
  });
});

describe('the bundled price data', () => {
  const entry = createRequire(import.meta.url).resolve('@pydantic/genai-prices');
  const packageDir = join(dirname(entry), '..');

  it('should be the version the catalog names (bump GENAI_PRICES with the package)', () => {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe(GENAI_PRICES.version);
  });

  it('should not reach the network: the module the gateway loads (its CommonJS build) calls no fetch and opens no socket', () => {
    expect(entry).toMatch(/index\.cjs$/);
    const code = readFileSync(entry, 'utf8');
    expect(code).not.toMatch(
      /\bfetch\s*\(|XMLHttpRequest|from\s*["']node:(http|https|net)["']|require\(["'](node:)?(http|https|net)["']\)/,
    );
  });
});
