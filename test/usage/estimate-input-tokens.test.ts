import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { estimateInputTokens } from '../../src/usage/estimate-input-tokens.js';

const ask = (text: string, extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

describe('estimateInputTokens', () => {
  it('should count a short message as a few tokens', async () => {
    const tokens = await estimateInputTokens(ask('Hello, world'));
    expect(tokens).toBeGreaterThan(4);
    expect(tokens).toBeLessThan(12);
  });

  it('should grow with the text', async () => {
    const short = await estimateInputTokens(ask('word '.repeat(10)));
    const long = await estimateInputTokens(ask('word '.repeat(1000)));
    expect(long - short).toBeGreaterThan(900);
  });

  it('should count the system prompt, tool definitions and images', async () => {
    const base = await estimateInputTokens(ask('hi'));
    expect(await estimateInputTokens(ask('hi', { system: [{ type: 'text', text: 'You are terse. '.repeat(20) }] }))).toBeGreaterThan(base + 40);
    const withTool = await estimateInputTokens(
      ask('hi', { tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] }),
    );
    expect(withTool).toBeGreaterThan(base + 10);
    const withImage = await estimateInputTokens({
      ...ask('hi'),
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] },
      ],
    });
    expect(withImage - base).toBe(1600);
  });
});
