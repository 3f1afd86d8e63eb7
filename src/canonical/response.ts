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
