import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CanonicalRequest } from '../../src/canonical/index.js';
import { estimateInputTokenRange, estimateInputTokens } from '../../src/usage/estimate-input-tokens.js';

const run = promisify(execFile);

const ask = (text: string, extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'm',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

describe('estimateInputTokens', () => {
  it('should count a 2 MB run without spaces in slices, never blocking the event loop for long', async () => {
    // The tokenizer loads once, before the count watched here.
    await estimateInputTokens(ask('warm up'));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // BPE over one 2 MB "word" costs its length squared: minutes, with every other request waiting.
    const tokens = await estimateInputTokens(ask('x'.repeat(2_000_000)));
    delay.disable();
    expect(tokens).toBeGreaterThan(2_000_000 / 20);
    expect(tokens).toBeLessThan(2_000_000);
    // A slice takes milliseconds, about a second on a loaded 2-core machine; whole, minutes.
    expect(delay.max / 1e6).toBeLessThan(5_000);
  });

  it('should count long text in pieces to within a token per piece of counting it whole', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(4_000); // 180 kB: three pieces
    const whole = await estimateInputTokens(ask('x'));
    const tokens = await estimateInputTokens(ask(text));
    expect(Math.abs(tokens - whole - 10 * 4_000)).toBeLessThan(10);
  });

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
    expect(await estimateInputTokens(ask('hi', { system: [{ type: 'text', text: 'You are terse. '.repeat(20) }] }))).toBeGreaterThan(
      base + 40,
    );
    const withTool = await estimateInputTokens(
      ask('hi', {
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      }),
    );
    expect(withTool).toBeGreaterThan(base + 10);
    const withImage = await estimateInputTokens({
      ...ask('hi'),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } },
          ],
        },
      ],
    });
    expect(withImage - base).toBe(1600);
  });

  describe('without gpt-tokenizer', () => {
    it('should count 4 characters per token when the optional tokenizer is not installed', async () => {
      // A child process in which gpt-tokenizer cannot be found, as after `npm install --omit=optional`.
      const hooks = `export async function resolve(specifier, context, next) {
        if (specifier.startsWith('gpt-tokenizer')) throw Object.assign(new Error('Cannot find package ' + specifier), { code: 'ERR_MODULE_NOT_FOUND' });
        return next(specifier, context);
      }`;
      const withoutTokenizer = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
      const source = new URL('../../src/usage/estimate-input-tokens.ts', import.meta.url).href;
      const script = `const { estimateInputTokens } = await import(${JSON.stringify(source)});
        const ask = (text) => ({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
        console.log(JSON.stringify([await estimateInputTokens(ask('word '.repeat(400))), await estimateInputTokens(ask('x'.repeat(2_000_000)))]));`;
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          `data:text/javascript,${encodeURIComponent(withoutTokenizer)}`,
          '--input-type=module',
          '--eval',
          script,
        ],
        { cwd: join(import.meta.dirname, '../..') },
      );
      const [short, long] = JSON.parse(stdout) as [number, number];
      // "\n" + 2,000 characters + "\n": 501 tokens, and 4 for the message.
      expect(short).toBe(505);
      // Counted in pieces and slices, each rounded up.
      expect(long).toBeGreaterThanOrEqual(500_001 + 4);
      expect(long).toBeLessThan(500_001 + 4 + 100);
    });
  });
});

describe('estimateInputTokenRange', () => {
  it('should bracket the o200k_base count: 10% below it at least, 40% above at most', async () => {
    // " hello" is one o200k_base token.
    const request = ask(' hello'.repeat(1000));
    const range = await estimateInputTokenRange(request);
    expect(range.atLeast).toBe(900);
    expect(range.atMost).toBeGreaterThanOrEqual(1400);
    expect(range.atMost).toBeLessThan(1500);
  });

  it('should count earlier reasoning and images only in the high count', async () => {
    const plain = await estimateInputTokenRange(ask(' hello'.repeat(100)));
    const withMore = await estimateInputTokenRange({
      ...ask(' hello'.repeat(100)),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: ' hello'.repeat(100) },
            { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'reasoning', text: ' think'.repeat(500) }] },
      ],
    });
    expect(withMore.atLeast).toBe(plain.atLeast);
    expect(withMore.atMost).toBeGreaterThan(plain.atMost + 2_000 + 500);
  });
});
