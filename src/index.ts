export { gateway } from './gateway.js';
export type { GatewayOptions, ModelConfig } from './options.js';
export type { ProviderConfig } from './providers/create-provider.js';
export type { ApiKeyVerifier } from './access/authenticate.js';
export type { ProviderAdapter, ProviderContext, ModelCapabilities, Logger } from './providers/types.js';
export { createMockProvider, DEFAULT_MOCK_REPLY } from './providers/mock/index.js';
export type { MockProviderOptions, MockReply } from './providers/mock/index.js';
export { GatewayError } from './canonical/index.js';
export type * from './canonical/index.js';
