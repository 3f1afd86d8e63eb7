import type { ModelCapabilities } from './types.js';

/** What a model is assumed to accept when neither its adapter nor the config says otherwise. */
export const allCapabilities: ModelCapabilities = {
  streaming: true,
  tools: true,
  images: true,
  files: true,
  audio: true,
  reasoning: true,
  structuredOutput: true,
  providerTools: [],
};
