import type { InboundCodec } from '../codec.js';
import { responsesFields } from './request-fields.js';
import { renderResponsesError } from './errors.js';
import { decodeResponsesRequest } from './request.js';
import { encodeResponsesResponse } from './response.js';
import { createResponsesStreamEncoder } from './stream-encoder.js';

/**
 * Top-level Responses fields that are hints only — caching, storage, telemetry, client metadata,
 * output verbosity — and may be left behind when the provider speaks another protocol. Every
 * other field kept in `extensions.responses` (`previous_response_id`, `conversation`, `prompt`,
 * `background`, `top_logprobs`, `truncation`, `context_management`, `moderation`,
 * `max_tool_calls`, non-canonical `tool_choice`, extra `reasoning` settings, unknown fields…)
 * changes the answer, so carrying it elsewhere is a 400.
 */
const hintFields: ReadonlySet<string> = new Set([
  'store',
  'include',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'client_metadata',
  'service_tier',
  'stream_options',
  'user',
  'safety_identifier',
  'metadata',
  'text',
]);

/** The OpenAI Responses protocol (`POST /v1/responses`), inbound side. */
export const responsesCodec: InboundCodec = {
  protocol: 'responses',
  decodeRequest: decodeResponsesRequest,
  encodeResponse: encodeResponsesResponse,
  createStreamEncoder: createResponsesStreamEncoder,
  renderError: renderResponsesError,
  hintFields,
  fields: responsesFields,
};

export { decodeResponsesRequest, encodeResponsesResponse, createResponsesStreamEncoder, renderResponsesError };

// Outbound side: the gateway calls an OpenAI Responses upstream.
export { encodeResponsesRequest } from './request-encoder.js';
export type { ResponsesRequestEncodeOptions } from './request-encoder.js';
export { decodeResponsesResponse } from './response-decoder.js';
export { createResponsesStreamDecoder } from './stream-decoder.js';
export { createResponsesStreamRelay } from './stream-relay.js';
export type { ResponsesStreamRelayOptions } from './stream-relay.js';
export type { ResponsesStreamDecoder, ResponsesStreamDecoderOptions } from './stream-decoder.js';
export { parseResponsesError, decodeResponsesFailure } from './upstream-error.js';
export { encodeResponsesInputTokensRequest, decodeResponsesInputTokensResponse } from './upstream-input-tokens.js';
