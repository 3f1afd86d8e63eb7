import type { ProtocolName } from './extensions.js';

/** What a model can accept. A request that needs more is refused with a 400 before the provider is called. */
export interface ModelCapabilities {
  streaming: boolean;
  tools: boolean;
  /** Image input parts. */
  images: boolean;
  /** Document/file input parts. */
  files: boolean;
  audio: boolean;
  reasoning: boolean;
  /** `responseFormat` of type `json` / `json-schema`. */
  structuredOutput: boolean;
  /** Protocols whose provider-defined tools (web_search, server tools) this model accepts. */
  providerTools: readonly ProtocolName[];
}
