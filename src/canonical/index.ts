export type { Extensions, ProtocolName } from './extensions.js';
export type {
  TextPart,
  MediaSource,
  ImagePart,
  FilePart,
  AudioPart,
  ToolCallPart,
  ToolResultContent,
  ToolResultPart,
  ReasoningPart,
  RefusalPart,
  ProviderDefinedPart,
  UserContentPart,
  AssistantContentPart,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  CanonicalMessage,
} from './message.js';
export type { JsonSchema, FunctionTool, ProviderDefinedTool, CanonicalTool, ToolChoice } from './tool.js';
export type {
  ReasoningEffort,
  ReasoningConfig,
  ResponseFormat,
  SamplingOptions,
  RequestMetadata,
  CanonicalRequest,
} from './request.js';
export type { UnifiedFinishReason, FinishReason } from './finish-reason.js';
export { finishReason } from './finish-reason.js';
export type { Usage } from './usage.js';
export type { ModelPrice, PriceTier } from './model-price.js';
export type { CutStream } from './cut-stream.js';
export type { RateLimitReading, RateLimitState } from './rate-limit-state.js';
export { estimateCutOutputTokens, estimateCutReasoningTokens } from './cut-stream.js';
export type { CanonicalResponse, RelayedAnswer } from './response.js';
export type { CanonicalStreamEvent, CanonicalStreamEventType } from './stream-event.js';
export { GatewayError } from './errors.js';
export { quoteCallerText } from './quote-caller-text.js';
export { findClosestId } from './closest-id.js';
export { hostedToolFamily, isHostedTool } from './hosted-tool-family.js';
export type { GatewayErrorKind, GatewayErrorInit } from './errors.js';
export { configError, configIssueError, configIssueMessage, fieldPath, formatConfigIssue } from './config-error.js';
export type { ConfigIssue, RawConfigIssue } from './config-error.js';
export { unsupportedFeatureError } from './unsupported-feature.js';
export type { UnsupportedFeatureDetail } from './unsupported-feature.js';
export { unknownFieldError, protocolApiName } from './unknown-field.js';
export type { ApiFields } from './unknown-field.js';
export type { Caller } from './caller.js';
export type { UpstreamAttempt } from './upstream-attempt.js';
export type { EventBatches, RelayBatch, RelayBatches } from './event-batches.js';
export type { UpstreamResponseInfo } from './upstream-response-info.js';
export { customErrorCode, errorCodes, isErrorCode, openaiErrorCode, upstreamErrorCode } from './error-codes.js';
export type { ErrorCode, ErrorCodeEntry, UnregisteredErrorCode } from './error-codes.js';
export { streamEndedEarly } from './stream-ended-early.js';
export { storeUnavailable } from './store-unavailable.js';
export type { ModelCapabilities } from './model-capabilities.js';
export type { ModelSummary } from './model-summary.js';
