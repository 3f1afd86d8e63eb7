export { gateway } from './gateway/gateway.js';
export type {
  GatewayOptions,
  ModelConfig,
  ModelOptions,
  PolicyAction,
  RequestPolicy,
  RequestPolicyOptions,
  TimeoutOptions,
  UnavailableModel,
} from './gateway/options.js';
export type { BuiltInProviderOptions, ProviderConfig } from './providers/create-provider.js';
export type { ApiKeyVerifier } from './access/authenticate.js';

export type { ProviderAdapter, ProviderContext, ModelCapabilities } from './providers/types.js';
export type { ProviderSpecificationVersion } from './providers/specification-version.js';
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

export { costOf, lookupModel } from './catalog/index.js';
export type { CatalogCapabilities, CatalogModel, CatalogPrice, ReasoningControl } from './catalog/index.js';

export { GatewayError, customErrorCode, errorCodes } from './canonical/index.js';
export type * from './canonical/index.js';

export { openDatabase } from './storage/open-database.js';
export type { Database, OpenDatabaseOptions, StorageEngine } from './storage/open-database.js';
export { createKey, findKey, listKeys, revokeKey } from './access/stored-keys.js';
export type { NewKey, StoredKey, KeyLookup, BudgetPeriod } from './access/stored-keys.js';
export type { KeyService } from './access/key-service.js';
export { queryUsage } from './usage/usage-queries.js';
export type { UsageQuery, UsageTotals, UsageGrouping } from './usage/usage-queries.js';
export type { LedgerOptions } from './gateway/persistence.js';
export type { InterruptedStreamPolicy } from './usage/cut-stream-usage.js';
export type { Gateway } from './gateway/gateway.js';
export type { Stage, StageAnswer, StageContext, StagePosition, BuiltInStageName, PipelineEndpoint } from './pipeline/stage.js';

export { metricsHandler } from './observability/metrics-handler.js';
export type { MetricsOptions, MetricsRegistry } from './observability/gateway-metrics.js';
export type { RequestLogOptions, TracingOptions } from './observability/resolve-observability.js';
export type { RequestLogger } from './observability/request-log-stage.js';
export type { PromptLogging, LoggedMessage } from './observability/prompt-summary.js';
export type { Readiness, ReadinessCheck } from './observability/readiness.js';
export type { UpstreamAttemptMetric, UpstreamObserver, UpstreamOutcome } from './observability/upstream-observer.js';
export { statusPage } from './status/status-page.js';
export type { StatusPage, StatusPageOptions } from './status/status-page.js';
export type { StatusReport, ModelStatus, WindowFigures, ModelState, StatusWindow } from './status/status-report.js';
export { switchyardConsole } from './console/console-handler.js';
export type { ConsoleHandler } from './console/console-handler.js';
export type { ConsoleOptions, ConsoleGateway, RegistrationMode, ReportSource, UserKeyCeiling } from './console/console-options.js';
export { switchyardDocs } from './docs-site/docs-handler.js';
export type { DocsHandler } from './docs-site/docs-handler.js';
export type { DocsOptions } from './docs-site/docs-options.js';
export type { DocsGateway } from './docs-site/signed-in-keys.js';
export type { DeploymentConfig, DeploymentOptions, DeploymentStrategy } from './routing/deployment.js';
export type { RetryOptions } from './routing/retry-policy.js';
export type { CooldownOptions } from './routing/cooldown.js';
export type { CooldownEvent, RoutingCounters, RoutingEvents } from './routing/routing-events.js';
