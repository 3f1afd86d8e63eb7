export { createOpenAIProvider } from './openai-provider.js';
export type { OpenAIProviderOptions } from './options.js';
export type { AzureOpenAIOptions } from './azure.js';
export { openAIProviderOptionsSchema } from './options.js';
export { createChatAdapter } from './chat-adapter.js';
export type { ChatAdapterOptions, ChatTarget } from './chat-adapter.js';
