/**
 * What a model costs, in US dollars per million tokens. `inputTokens` counts cache reads and
 * writes too; those parts are priced at `cachedInput` and `cacheWrite` when given, else at `input`.
 * Reasoning tokens are output tokens, priced at `reasoning` when the model prices them apart.
 */
export interface ModelPrice {
  input: number;
  output: number;
  /** Input read from a prompt cache. */
  cachedInput?: number;
  /** Input written to a prompt cache (Anthropic: the 5-minute cache). */
  cacheWrite?: number;
  /** Input written to the 1-hour prompt cache (Anthropic). Default: `cacheWrite`. */
  cacheWrite1h?: number;
  /** Reasoning output, where it is priced apart from the rest of the output. Default: `output`. */
  reasoning?: number;
  /**
   * Dearer prices for long prompts (Gemini and Claude above 200k input tokens): the last tier whose
   * `aboveInputTokens` the request's input exceeds prices every token of the request; a price the
   * tier leaves out is the base one.
   */
  tiers?: readonly PriceTier[];
}

/** The prices of a request whose input exceeds `aboveInputTokens`. */
export interface PriceTier extends Partial<Omit<ModelPrice, 'tiers'>> {
  aboveInputTokens: number;
}
