import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../src/canonical/index.js';
import { configuredPrice, costOf, maxCostOf } from '../../src/catalog/index.js';

// Figures in nano-USD (1e-9 USD); a price of $1 per million tokens is 1,000 nano-USD per token.
const claudeSonnet: ModelPrice = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };
const gpt41Mini: ModelPrice = { input: 0.4, output: 1.6, cachedInput: 0.1 };
const gemini25Pro: ModelPrice = {
  input: 1.25,
  output: 10,
  cachedInput: 0.125,
  tiers: [{ aboveInputTokens: 200_000, input: 2.5, output: 15, cachedInput: 0.25 }],
};
const flashPreview: ModelPrice = { input: 0.15, output: 0.6, reasoning: 3.5 };

describe('costOf', () => {
  it('should price Anthropic cache reads and 5-minute and 1-hour cache writes apart', () => {
    const usage = { inputTokens: 10_000, cachedInputTokens: 2_000, cacheWriteTokens: 3_000, cacheWrite1hTokens: 1_000, outputTokens: 500 };
    // plain 5,000 × 3,000 + read 2,000 × 300 + 5m 2,000 × 3,750 + 1h 1,000 × 6,000 + out 500 × 15,000
    expect(costOf(usage, claudeSonnet)).toBe(15_000_000 + 600_000 + 7_500_000 + 6_000_000 + 7_500_000);
  });

  it('should price every cache write as a 5-minute one when the usage does not split them', () => {
    const usage = { inputTokens: 10_000, cacheWriteTokens: 4_000, outputTokens: 0 };
    expect(costOf(usage, claudeSonnet)).toBe(6_000 * 3_000 + 4_000 * 3_750);
  });

  it('should price 1-hour writes at the 5-minute price when no 1-hour price is given', () => {
    const usage = { inputTokens: 1_000, cacheWriteTokens: 1_000, cacheWrite1hTokens: 1_000, outputTokens: 0 };
    expect(costOf(usage, { input: 3, output: 15, cacheWrite: 3.75 })).toBe(3_750_000);
  });

  it('should price OpenAI cached input at its own price', () => {
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 600_000, outputTokens: 10_000 };
    // 400,000 × 400 + 600,000 × 100 + 10,000 × 1,600
    expect(costOf(usage, gpt41Mini)).toBe(236_000_000);
  });

  it('should price a Gemini request above 200k input tokens at the tier, every token of it', () => {
    const usage = { inputTokens: 250_000, cachedInputTokens: 50_000, outputTokens: 1_000 };
    // 200,000 × 2,500 + 50,000 × 250 + 1,000 × 15,000
    expect(costOf(usage, gemini25Pro)).toBe(500_000_000 + 12_500_000 + 15_000_000);
  });

  it('should keep the base price at exactly 200k input tokens', () => {
    expect(costOf({ inputTokens: 200_000, outputTokens: 1_000 }, gemini25Pro)).toBe(200_000 * 1_250 + 1_000 * 10_000);
  });

  it('should price reasoning output apart where the model does', () => {
    const usage = { inputTokens: 1_000, outputTokens: 2_000, reasoningTokens: 1_500 };
    // 1,000 × 150 + 500 × 600 + 1,500 × 3,500
    expect(costOf(usage, flashPreview)).toBe(5_700_000);
  });

  it('should price reasoning as output where the model does not price it apart', () => {
    expect(costOf({ inputTokens: 0, outputTokens: 2_000, reasoningTokens: 1_500 }, gpt41Mini)).toBe(2_000 * 1_600);
  });

  it('should be undefined, never 0, when a count it needs is unknown', () => {
    expect(costOf({ outputTokens: 10 }, gpt41Mini)).toBeUndefined();
    expect(costOf({ inputTokens: 10 }, gpt41Mini)).toBeUndefined();
    expect(costOf({ inputTokens: 10, outputTokens: 10 }, flashPreview)).toBeUndefined();
  });

  it('should round to the nearest nano-USD', () => {
    expect(costOf({ inputTokens: 1, outputTokens: 0 }, { input: 0.0375, output: 0 })).toBe(38);
  });
});

describe('maxCostOf', () => {
  it('should reserve at the tier the input bound reaches, at the dearest input and output rates', () => {
    // 300,000 × 2,500 + 1,000 × 15,000
    expect(maxCostOf(300_000, 1_000, gemini25Pro)).toBe(765_000_000);
    // 1,000 × 6,000 (1-hour write) + 100 × 15,000
    expect(maxCostOf(1_000, 100, claudeSonnet)).toBe(7_500_000);
    expect(maxCostOf(0, 1_000, flashPreview)).toBe(3_500_000);
  });

  it('should never be below the cost of a request within its bounds', () => {
    const prices = [claudeSonnet, gpt41Mini, gemini25Pro, flashPreview];
    fc.assert(
      fc.property(
        fc.constantFrom(...prices),
        fc.integer({ min: 0, max: 400_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (price, input, output, cachedShare, writtenShare, reasoningShare) => {
          const cached = Math.floor(input * cachedShare);
          const written = Math.floor((input - cached) * writtenShare);
          const usage = {
            inputTokens: input,
            outputTokens: output,
            cachedInputTokens: cached,
            cacheWriteTokens: written,
            cacheWrite1hTokens: Math.floor(written / 2),
            reasoningTokens: Math.floor(output * reasoningShare),
          };
          expect(maxCostOf(input, output, price)).toBeGreaterThanOrEqual(costOf(usage, price) ?? 0);
        },
      ),
    );
  });
});

describe('configuredPrice', () => {
  it('should keep the version a price of the first four fields always had', () => {
    // sha256 of [2.5,10,1.25,null], as ledger rows written before the other fields existed record it.
    expect(configuredPrice({ input: 2.5, output: 10, cachedInput: 1.25 }).version).toBe('config:28ecddb2581d');
  });

  it('should change the version when a new field changes', () => {
    const base = configuredPrice({ input: 3, output: 15, cacheWrite: 3.75 }).version;
    expect(configuredPrice({ input: 3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 }).version).not.toBe(base);
    expect(configuredPrice({ input: 3, output: 15, cacheWrite: 3.75, tiers: [{ aboveInputTokens: 200_000, input: 6 }] }).version).not.toBe(
      base,
    );
  });
});
