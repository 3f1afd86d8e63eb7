import type { ModelPrice } from '../canonical/index.js';
import type { SourcedPrice } from './cost.js';

/**
 * What a model can do, as far as the catalog knows: a field left out is not known. `hostedTools`
 * is false for a model that cannot run its provider's hosted tools (web search, code interpreter…).
 */
export interface CatalogCapabilities {
  streaming?: boolean;
  tools?: boolean;
  images?: boolean;
  files?: boolean;
  audio?: boolean;
  reasoning?: boolean;
  structuredOutput?: boolean;
  hostedTools?: boolean;
}

/**
 * How a model is asked to reason: `effort` (OpenAI `reasoning_effort` / `reasoning.effort`,
 * gpt-oss), `budget` (a thinking-token budget: Claude, Gemini 2.5), `level` (Gemini 3
 * `thinkingLevel`), `switch` (on or off: Qwen3 `enable_thinking`, DeepSeek V3.1+ hybrid), `always`
 * (the model always reasons and takes no setting: DeepSeek R1, `deepseek-reasoner`).
 */
export type ReasoningControl = 'effort' | 'budget' | 'level' | 'switch' | 'always';

/** A catalog price: the price, where it comes from, and since when it applies. */
export interface CatalogPrice extends SourcedPrice {
  asOf: string;
}

/** What the catalog knows of one model. */
export interface CatalogModel {
  /** The catalog's name for the model (the family the upstream id matched), e.g. `gpt-4.1-mini`. */
  id: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  capabilities: CatalogCapabilities;
  reasoningControl?: ReasoningControl;
  price?: CatalogPrice;
}

/** One hand-kept entry of the curated layer: the figures the price source lacks. */
export interface CuratedModel {
  id: string;
  /** Tested against the upstream id without its provider prefix and date suffix. */
  match: RegExp;
  contextWindow?: number;
  maxOutputTokens?: number;
  capabilities?: CatalogCapabilities;
  reasoningControl?: ReasoningControl;
  /** A price the price source lacks or gets wrong, with the day it took effect and its page. */
  price?: { price: ModelPrice; effectiveFrom: string; sourceUrl: string };
}
