export { createMockProvider } from './mock-provider.js';
export type { MockProviderOptions } from './mock-provider.js';
export { DEFAULT_MOCK_REPLY } from './mock-plan.js';
export type { MockReply } from './mock-plan.js';
