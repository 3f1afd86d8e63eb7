export { createOpenAIResponsesProvider } from './openai-responses-provider.js';
export type { OpenAIResponsesProviderOptions } from './options.js';
export { openAIResponsesCapabilities } from './capabilities.js';
export { openAIResponsesProviderOptionsSchema } from './options.js';
