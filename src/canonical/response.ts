import type { Extensions } from './extensions.js';
import type { FinishReason } from './finish-reason.js';
import type { AssistantContentPart } from './message.js';
import type { Usage } from './usage.js';

/** A finished answer from a provider. */
export interface CanonicalResponse {
  id: string;
  /** The model that answered, as the provider named it. */
  model: string;
  content: AssistantContentPart[];
  finishReason: FinishReason;
  /** The stop sequence that ended generation, when known. */
  stopSequence?: string;
  usage: Usage;
  extensions?: Extensions;
}

/**
 * An answer passed through to a caller who speaks the upstream's protocol
 * (`ProviderAdapter.relayGenerate`): the upstream's body as the caller gets it, and what it says.
 */
export interface RelayedAnswer {
  readonly response: CanonicalResponse;
  /** The upstream's JSON body, naming the caller's model. */
  readonly wire: string;
}
