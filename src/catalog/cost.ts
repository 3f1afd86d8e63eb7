import { createHash } from 'node:crypto';
import type { ModelPrice, Usage } from '../canonical/index.js';

/** A price with the version a ledger row records, so a row can be re-priced or audited later. */
export interface VersionedPrice {
  price: ModelPrice;
  version: string;
}

/** Nano-USD per token for a price in USD per million tokens. */
const perToken = (usdPerMillion: number) => usdPerMillion * 1_000;

/**
 * The cost of `usage` at `price`, in nano-USD (1e-9 USD), rounded to the nearest unit; undefined
 * when the input or output count is unknown: an unknown cost is never 0.
 */
export function costOf(usage: Usage, price: ModelPrice): number | undefined {
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, inputTokens - cached - written);
  const cost =
    plain * perToken(price.input) +
    cached * perToken(price.cachedInput ?? price.input) +
    written * perToken(price.cacheWrite ?? price.input) +
    outputTokens * perToken(price.output);
  return Math.round(cost);
}

/** The most a request can cost: every input token at the dearest input rate, and all of its output allowance. */
export function maxCostOf(inputTokensBound: number, maxOutputTokens: number, price: ModelPrice): number {
  const dearestInput = Math.max(price.input, price.cachedInput ?? 0, price.cacheWrite ?? 0);
  return Math.ceil(inputTokensBound * perToken(dearestInput) + maxOutputTokens * perToken(price.output));
}

/** A price from the configuration, versioned by its content: changing the price changes the version. */
export function configuredPrice(price: ModelPrice): VersionedPrice {
  const digest = createHash('sha256').update(JSON.stringify([price.input, price.output, price.cachedInput ?? null, price.cacheWrite ?? null])).digest('hex');
  return { price, version: `config:${digest.slice(0, 12)}` };
}
