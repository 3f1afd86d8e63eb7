export type { CatalogCapabilities, CatalogModel, CatalogPrice, ReasoningControl } from './catalog-model.js';
export { catalogHosts, lookupModel, type CatalogHost } from './lookup-model.js';
export { configuredPrice, costOf, maxCostOf, ratesFor, type SourcedPrice, type VersionedPrice } from './cost.js';
export { GENAI_PRICES } from './genai-prices-source.js';
