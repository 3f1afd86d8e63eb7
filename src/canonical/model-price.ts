/**
 * What a model costs, in US dollars per million tokens. `inputTokens` counts cache reads and
 * writes too; those parts are priced at `cachedInput` and `cacheWrite` when given, else at `input`.
 * Reasoning tokens are output tokens.
 */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}
