import { createRequire } from 'node:module';
import type { ModelInfo, ModelPrice as SourcePrice, Provider } from '@pydantic/genai-prices';
import type { ModelPrice, PriceTier } from '../canonical/index.js';
import { priceLookupIds } from './model-id.js';

/**
 * The bundled data of `@pydantic/genai-prices`: its version and the day it was published (its
 * prices' "as of"). Only the bundled data is read: the package fetches nothing unless
 * `updatePrices` is called, which the gateway never does. A test keeps the version in step with
 * the installed package.
 */
export const GENAI_PRICES = { version: '0.1.8', publishedOn: '2026-09-23' } as const;

type GenaiPrices = typeof import('@pydantic/genai-prices');
let loaded: GenaiPrices | undefined;

/**
 * The package, loaded on the first lookup: a gateway whose models are all on the mock or custom
 * adapters never reads its price data (about 20 MB of memory once loaded).
 */
function genaiPrices(): GenaiPrices {
  loaded ??= createRequire(import.meta.url)('@pydantic/genai-prices') as GenaiPrices;
  return loaded;
}

/** What the price source knows of a model. */
export interface SourcedModel {
  /** The source's model id. */
  id: string;
  contextWindow?: number;
  price?: ModelPrice;
  /** The day the price took effect, when the source dates it. */
  effectiveFrom?: string;
  /** The provider's pricing page. */
  sourceUrl?: string;
}

type Tiered = { base: number; tiers: readonly { start: number; price: number }[] };
type SourceValue = number | Tiered | undefined;

/** Source price keys (USD per million tokens) → `ModelPrice` fields. Audio, image and per-search prices have no canonical count. */
const fields = {
  input_mtok: 'input',
  output_mtok: 'output',
  cache_read_mtok: 'cachedInput',
  cache_write_mtok: 'cacheWrite',
  cache_write_1h_mtok: 'cacheWrite1h',
} as const;

const baseOf = (value: SourceValue) => (typeof value === 'object' ? value.base : value);

/** The value of a (possibly tiered) price for a request whose input exceeds `threshold`. */
function atThreshold(value: SourceValue, threshold: number): number | undefined {
  if (typeof value !== 'object') return value;
  let price = value.base;
  for (const tier of value.tiers) if (threshold >= tier.start) price = tier.price;
  return price;
}

/** A source price as a `ModelPrice`; undefined without both an input and an output price (e.g. speech models). */
export function toModelPrice(source: SourcePrice): ModelPrice | undefined {
  const values = source as Record<string, SourceValue>;
  const input = baseOf(values.input_mtok);
  const output = baseOf(values.output_mtok);
  if (input === undefined || output === undefined) return undefined;
  const price: { -readonly [K in keyof ModelPrice]: ModelPrice[K] } = { input, output };
  for (const [key, field] of Object.entries(fields)) {
    const value = baseOf(values[key]);
    if (value !== undefined) price[field] = value;
  }
  // A tier starts where any price changes; there every price takes its value for that prompt size.
  const starts = new Set<number>();
  for (const key of Object.keys(fields)) {
    const value = values[key];
    if (typeof value === 'object') for (const tier of value.tiers) starts.add(tier.start);
  }
  const tiers: PriceTier[] = [...starts]
    .sort((a, b) => a - b)
    .map((start) => {
      const tier: { -readonly [K in keyof PriceTier]: PriceTier[K] } = { aboveInputTokens: start };
      for (const [key, field] of Object.entries(fields)) {
        const value = atThreshold(values[key], start);
        if (value !== undefined) tier[field] = value;
      }
      return tier;
    });
  return tiers.length === 0 ? price : { ...price, tiers };
}

/**
 * The model's price in effect on `at`: the latest dated price not after it. Where the source has
 * time-of-day prices (DeepSeek's off-peak hours), the dearest of them applies whatever the hour,
 * so no request is priced too low.
 */
function priceInEffect(model: ModelInfo, at: Date): { price: SourcePrice; effectiveFrom?: string } {
  if (!Array.isArray(model.prices)) return { price: model.prices };
  let dated: { price: SourcePrice; effectiveFrom?: string } | undefined;
  const byHour: SourcePrice[] = [];
  for (const conditional of model.prices) {
    const constraint = conditional.constraint;
    if (constraint === undefined) dated ??= { price: conditional.prices };
    else if (constraint.type === 'time_of_date') byHour.push(conditional.prices);
    else if (new Date(`${constraint.start_date}T00:00:00Z`) <= at)
      dated = { price: conditional.prices, effectiveFrom: constraint.start_date };
  }
  const chosen = dated ?? { price: model.prices[0]?.prices ?? {} };
  const dearest = (price: SourcePrice) => baseOf(price.input_mtok as SourceValue) ?? 0;
  for (const price of byHour) if (dearest(price) > dearest(chosen.price)) chosen.price = price;
  return chosen;
}

/** The source's entry for `upstreamModel` at `provider` (a genai-prices provider id), tried under its plain and prefixed forms. */
export function findSourcedModel(provider: string, upstreamModel: string, at: Date): SourcedModel | undefined {
  for (const id of priceLookupIds(upstreamModel)) {
    const found = genaiPrices().calcPrice({}, id, { providerId: provider });
    if (found === null) continue;
    const { price, effectiveFrom } = priceInEffect(found.model, at);
    const modelPrice = toModelPrice(price);
    return {
      id: found.model.id,
      ...(found.model.context_window === undefined ? {} : { contextWindow: found.model.context_window }),
      ...(modelPrice === undefined ? {} : { price: modelPrice }),
      ...(effectiveFrom === undefined ? {} : { effectiveFrom }),
      ...pricingPage(found.provider),
    };
  }
  return undefined;
}

function pricingPage(provider: Provider): { sourceUrl?: string } {
  const url = provider.pricing_urls?.[0];
  return url === undefined ? {} : { sourceUrl: url };
}
