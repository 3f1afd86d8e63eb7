export { createMockProvider } from './mock-provider.js';
export type { MockProviderOptions } from './mock-provider.js';
export { DEFAULT_MOCK_REPLY } from './mock-plan.js';
export type { MockReply, MockToolArguments } from './mock-plan.js';
