export { createOpenAICompatibleProvider } from './openai-compatible-provider.js';
export type { OpenAICompatibleProviderOptions } from './options.js';
export { openAICompatibleProfiles } from './quirks.js';
export type { ChatQuirks, OpenAICompatibleProfile } from './quirks.js';
export { openAICompatibleProviderOptionsSchema } from './options.js';
