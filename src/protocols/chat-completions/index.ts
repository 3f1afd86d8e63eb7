import type { InboundCodec } from '../codec.js';
import { chatFields } from './request-fields.js';
import { renderChatError } from './errors.js';
import { decodeChatRequest } from './request.js';
import { encodeChatResponse } from './response.js';
import { createChatStreamEncoder } from './stream-encoder.js';

/**
 * Top-level Chat fields that are hints only (caching, storage, telemetry, client metadata,
 * output styling, and a `max_tokens` superseded by `max_completion_tokens`): safe to leave
 * behind when the provider speaks another protocol. Anything else kept in `extensions.chat`
 * (`n`, `logprobs`, `top_logprobs`, `logit_bias`, `modalities`, `audio`, `prediction`,
 * `web_search_options`, `moderation`, unknown fields) changes the answer.
 */
const hintFields: ReadonlySet<string> = new Set([
  'store',
  'service_tier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'user',
  'safety_identifier',
  'metadata',
  'verbosity',
  'stream_options',
  'max_tokens',
]);

/** OpenAI Chat Completions (`POST /v1/chat/completions`), inbound side. */
export const chatCodec: InboundCodec = {
  protocol: 'chat',
  decodeRequest: decodeChatRequest,
  encodeResponse: encodeChatResponse,
  createStreamEncoder: createChatStreamEncoder,
  renderError: renderChatError,
  hintFields,
  fields: chatFields,
};

export { decodeChatRequest } from './request.js';
export { encodeChatResponse } from './response.js';
export { createChatStreamEncoder } from './stream-encoder.js';
export { renderChatError } from './errors.js';
export { encodeChatFinishReason, decodeChatFinishReason } from './finish-reason.js';
export { encodeChatUsage, decodeChatUsage } from './usage.js';

// Outbound: the gateway calls a Chat Completions upstream.
export { encodeChatRequest } from './request-encoder.js';
export type { ChatWireRequest } from './request-encoder.js';
export { decodeChatResponse } from './response-decoder.js';
export { createChatStreamDecoder } from './stream-decoder.js';
export type { ChatStreamDecoder } from './stream-decoder.js';
export { createChatStreamRelay } from './stream-relay.js';
export type { ChatStreamRelayOptions } from './stream-relay.js';
export { parseChatError, parseChatInBandError } from './upstream-error.js';
export { openAIChatDialect } from './dialect.js';
export type { ChatDialect, ChatEncodeOptions, ChatToolChoiceForm } from './dialect.js';
