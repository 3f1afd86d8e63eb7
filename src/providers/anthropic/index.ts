export { createAnthropicProvider } from './anthropic-provider.js';
export type { AnthropicProviderOptions } from './options.js';
export { anthropicProviderOptionsSchema } from './options.js';
export { anthropicCapabilities } from './capabilities.js';
