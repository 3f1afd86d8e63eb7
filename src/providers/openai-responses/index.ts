export { createOpenAIResponsesProvider } from './openai-responses-provider.js';
export type { OpenAIResponsesProviderOptions } from './openai-responses-provider.js';
export { openAIResponsesCapabilities } from './capabilities.js';
export { openAIResponsesProviderOptionsSchema } from './options-schema.js';
