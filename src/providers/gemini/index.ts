export { createGeminiProvider } from './gemini-provider.js';
export type { GeminiProviderOptions } from './options.js';
export { geminiProviderOptionsSchema, DEFAULT_GEMINI_BASE_URL } from './options.js';
export { geminiCapabilities } from './capabilities.js';
