import { createHash } from 'node:crypto';
import type { ModelPrice, Usage } from '../canonical/index.js';

/** A price with the version a ledger row records, so a row can be re-priced or audited later. */
export interface VersionedPrice {
  price: ModelPrice;
  /** `config:<digest>` for a configured price, `catalog:<source>:<date>` for the catalog's. */
  version: string;
}

/** A model's price as the gateway uses it: versioned, and saying where it comes from. */
export interface SourcedPrice extends VersionedPrice {
  /** `config`, `curated`, or the price data it was read from (`genai-prices@0.1.8`). */
  source: string;
  sourceUrl?: string;
  /** The day (YYYY-MM-DD) the price took effect, when known. */
  effectiveFrom?: string;
  /** The day the source's data was taken, for a source's price. */
  asOf?: string;
}

/** Nano-USD per token for a price in USD per million tokens. */
const perToken = (usdPerMillion: number) => usdPerMillion * 1_000;

type Rates = Omit<ModelPrice, 'tiers'>;

/** The prices of a request with `inputTokens` of input: the base ones, or those of the last tier it exceeds. */
export function ratesFor(price: ModelPrice, inputTokens: number): Rates {
  let rates: Rates = price;
  for (const tier of [...(price.tiers ?? [])].sort((a, b) => a.aboveInputTokens - b.aboveInputTokens)) {
    if (inputTokens > tier.aboveInputTokens) rates = { ...price, ...withoutThreshold(tier) };
  }
  return rates;
}

function withoutThreshold(tier: NonNullable<ModelPrice['tiers']>[number]): Rates {
  const { aboveInputTokens: _threshold, ...rates } = tier;
  return rates as Rates;
}

/**
 * The cost of `usage` at `price`, in nano-USD (1e-9 USD), rounded to the nearest unit; undefined
 * when a count it needs is unknown (input, output, and reasoning when the model prices it apart):
 * an unknown cost is never 0. Cache reads and writes not reported are none.
 */
export function costOf(usage: Usage, price: ModelPrice): number | undefined {
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const rates = ratesFor(price, inputTokens);
  if (rates.reasoning !== undefined && usage.reasoningTokens === undefined) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const writtenFor1h = Math.min(written, usage.cacheWrite1hTokens ?? 0);
  const plain = Math.max(0, inputTokens - cached - written);
  const reasoning = rates.reasoning === undefined ? 0 : Math.min(outputTokens, usage.reasoningTokens ?? 0);
  const cacheWrite = rates.cacheWrite ?? rates.input;
  const cost =
    plain * perToken(rates.input) +
    cached * perToken(rates.cachedInput ?? rates.input) +
    (written - writtenFor1h) * perToken(cacheWrite) +
    writtenFor1h * perToken(rates.cacheWrite1h ?? cacheWrite) +
    (outputTokens - reasoning) * perToken(rates.output) +
    reasoning * perToken(rates.reasoning ?? rates.output);
  return Math.round(cost);
}

/**
 * The most a request can cost: every input token at the dearest input rate, and all of its output
 * allowance at the dearest output rate, with the tier `inputTokensBound` reaches. Never below `costOf`.
 */
export function maxCostOf(inputTokensBound: number, maxOutputTokens: number, price: ModelPrice): number {
  const rates = ratesFor(price, inputTokensBound);
  const dearestInput = Math.max(rates.input, rates.cachedInput ?? 0, rates.cacheWrite ?? 0, rates.cacheWrite1h ?? 0);
  const dearestOutput = Math.max(rates.output, rates.reasoning ?? 0);
  return Math.ceil(inputTokensBound * perToken(dearestInput) + maxOutputTokens * perToken(dearestOutput));
}

/** A price from the configuration, versioned by its content: changing the price changes the version. */
export function configuredPrice(price: ModelPrice): SourcedPrice {
  const content: unknown[] = [price.input, price.output, price.cachedInput ?? null, price.cacheWrite ?? null];
  // Prices of the first four fields keep the versions they had before the others existed.
  if (price.cacheWrite1h !== undefined || price.reasoning !== undefined || price.tiers !== undefined) {
    content.push(price.cacheWrite1h ?? null, price.reasoning ?? null, price.tiers ?? null);
  }
  const digest = createHash('sha256').update(JSON.stringify(content)).digest('hex');
  return { price, version: `config:${digest.slice(0, 12)}`, source: 'config' };
}
