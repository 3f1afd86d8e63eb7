import type { ModelCapabilities } from './model-capabilities.js';
import type { ModelPrice } from './model-price.js';

/** A served model as people see it: its id, who serves it, its price, its context and what it can do. */
export interface ModelSummary {
  id: string;
  ownedBy: string;
  /** USD per million tokens; undefined when no price is configured (requests are then recorded unpriced). */
  price: ModelPrice | undefined;
  contextWindow: number | undefined;
  maxOutputTokens: number | undefined;
  capabilities: ModelCapabilities;
}
