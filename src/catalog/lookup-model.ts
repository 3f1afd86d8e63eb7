import type { CatalogModel, CatalogPrice, CuratedModel } from './catalog-model.js';
import { anthropicModels } from './curated/anthropic-models.js';
import { googleModels } from './curated/google-models.js';
import { openAIModels } from './curated/openai-models.js';
import { openModels } from './curated/open-models.js';
import { findSourcedModel, GENAI_PRICES, type SourcedModel } from './genai-prices-source.js';
import { familyId } from './model-id.js';

/**
 * Whose model ids an adapter's upstream ids are (`ProviderAdapter.modelCatalog`): a model vendor,
 * a host of open models with its own prices, or `open-models` for a server you run (no price).
 */
export const catalogHosts = [
  'openai',
  'anthropic',
  'google',
  'groq',
  'together',
  'deepseek',
  'openrouter',
  'mistral',
  'open-models',
] as const;
export type CatalogHost = (typeof catalogHosts)[number];

const vendorModels: Partial<Record<CatalogHost, readonly CuratedModel[]>> = {
  openai: openAIModels,
  anthropic: anthropicModels,
  google: googleModels,
};
/** Hosts of many vendors' models (OpenRouter serves `openai/…` and `anthropic/…` too) look in every list. */
const everyModel = [...openModels, ...openAIModels, ...anthropicModels, ...googleModels];

/** The day the curated layer was last checked against the providers' pages. */
export const CURATED_AS_OF = '2026-11-27';

const isHost = (host: string): host is CatalogHost => (catalogHosts as readonly string[]).includes(host);

function curatedEntry(host: CatalogHost, upstreamModel: string): CuratedModel | undefined {
  const family = familyId(upstreamModel);
  return (vendorModels[host] ?? everyModel).find((entry) => entry.match.test(family));
}

function catalogPrice(curated: CuratedModel | undefined, sourced: SourcedModel | undefined): CatalogPrice | undefined {
  if (curated?.price !== undefined) {
    const { price, effectiveFrom, sourceUrl } = curated.price;
    return { price, version: `catalog:curated:${effectiveFrom}`, source: 'curated', sourceUrl, effectiveFrom, asOf: CURATED_AS_OF };
  }
  if (sourced?.price === undefined) return undefined;
  const source = `genai-prices@${GENAI_PRICES.version}`;
  return {
    price: sourced.price,
    version: `catalog:${source}:${sourced.effectiveFrom ?? GENAI_PRICES.publishedOn}`,
    source,
    ...(sourced.sourceUrl === undefined ? {} : { sourceUrl: sourced.sourceUrl }),
    ...(sourced.effectiveFrom === undefined ? {} : { effectiveFrom: sourced.effectiveFrom }),
    asOf: GENAI_PRICES.publishedOn,
  };
}

/**
 * What the catalog knows of `upstreamModel` served by `host`: the curated layer (window, largest
 * output, capabilities, the prices the source lacks) over `@pydantic/genai-prices` (prices in
 * effect on `at`, windows). Dated and prefixed ids match their model (`gpt-4.1-mini-2025-04-14`,
 * `openai/gpt-4.1-mini`, `models/gemini-2.5-pro`). Undefined for a model neither knows.
 */
export function lookupModel(host: string, upstreamModel: string, at: Date = new Date()): CatalogModel | undefined {
  if (!isHost(host)) return undefined;
  const curated = curatedEntry(host, upstreamModel);
  const sourced = host === 'open-models' ? undefined : findSourcedModel(host, upstreamModel, at);
  if (curated === undefined && sourced === undefined) return undefined;
  const price = catalogPrice(curated, sourced);
  const contextWindow = curated?.contextWindow ?? sourced?.contextWindow;
  return {
    id: sourced?.id ?? curated?.id ?? familyId(upstreamModel),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(curated?.maxOutputTokens === undefined ? {} : { maxOutputTokens: curated.maxOutputTokens }),
    capabilities: { ...curated?.capabilities },
    ...(curated?.reasoningControl === undefined ? {} : { reasoningControl: curated.reasoningControl }),
    ...(price === undefined ? {} : { price }),
  };
}
