export { gateway } from './gateway.js';
export type { GatewayOptions, ModelConfig, PolicyAction, RequestPolicy, RequestPolicyOptions, UnavailableModel } from './options.js';
export type { ProviderConfig } from './providers/create-provider.js';
export type { ApiKeyVerifier } from './access/authenticate.js';

export type { ProviderAdapter, ProviderContext, ModelCapabilities } from './providers/types.js';
export type { Logger } from './logger.js';
export { createMockProvider, DEFAULT_MOCK_REPLY } from './providers/mock/index.js';
export type { MockProviderOptions, MockReply, MockToolArguments } from './providers/mock/index.js';
export { createOpenAIProvider } from './providers/openai/index.js';
export type { OpenAIProviderOptions, AzureOpenAIOptions } from './providers/openai/index.js';
export { createOpenAICompatibleProvider, openAICompatibleProfiles } from './providers/openai-compatible/index.js';
export type { OpenAICompatibleProviderOptions, OpenAICompatibleProfile, ChatQuirks } from './providers/openai-compatible/index.js';
export { createOpenAIResponsesProvider } from './providers/openai-responses/index.js';
export type { OpenAIResponsesProviderOptions } from './providers/openai-responses/index.js';
export { createAnthropicProvider } from './providers/anthropic/index.js';
export type { AnthropicProviderOptions } from './providers/anthropic/index.js';
export { createGeminiProvider } from './providers/gemini/index.js';
export type { GeminiProviderOptions } from './providers/gemini/index.js';

export { GatewayError } from './canonical/index.js';
export type * from './canonical/index.js';

export { openDatabase } from './storage/open-database.js';
export type { Database, OpenDatabaseOptions, StorageEngine } from './storage/open-database.js';
export { createKey, findKey, listKeys, revokeKey } from './access/stored-keys.js';
export type { NewKey, StoredKey, KeyLookup, BudgetPeriod } from './access/stored-keys.js';
export type { KeyService } from './access/key-service.js';
export { queryUsage } from './usage/usage-queries.js';
export type { UsageQuery, UsageTotals, UsageGrouping } from './usage/usage-queries.js';
export type { LedgerOptions } from './persistence.js';
export type { InterruptedStreamPolicy } from './usage/interrupted-usage.js';
export type { Gateway } from './gateway.js';
export type { DeploymentConfig, DeploymentStrategy } from './routing/deployment.js';
export type { RetryOptions } from './routing/retry-policy.js';
export type { CooldownOptions } from './routing/cooldown.js';
export type { AttemptEvent, CooldownEvent, RoutingCounters, RoutingEvents } from './routing/routing-events.js';
