import type { InboundCodec } from '../codec.js';
import { messagesFields } from './request-fields.js';
import { renderMessagesError } from './errors.js';
import { decodeMessagesRequest } from './request.js';
import { encodeMessagesResponse } from './response.js';
import { createMessagesStreamEncoder } from './stream-encoder.js';

/**
 * Top-level Messages fields that only tune caching, routing, telemetry or billing on
 * Anthropic's side; a provider speaking another protocol may ignore them.
 * Not hints: `mcp_servers` (adds tools), `thinking`/`output_config`/`tool_choice` leftovers and
 * unknown fields — carrying those elsewhere is a 400.
 */
const hintFields: ReadonlySet<string> = new Set([
  'cache_control',
  'context_management',
  'service_tier',
  'container',
  'inference_geo',
  'speed',
  'diagnostics',
  'metadata',
  'user_profile_id',
  'workspace_id',
]);

/** Anthropic Messages (`POST /v1/messages`) as spoken by clients calling the gateway. */
export const messagesCodec: InboundCodec = {
  protocol: 'messages',
  decodeRequest: decodeMessagesRequest,
  encodeResponse: encodeMessagesResponse,
  createStreamEncoder: createMessagesStreamEncoder,
  renderError: renderMessagesError,
  hintFields,
  fields: messagesFields,
};

export { decodeMessagesRequest, encodeMessagesResponse, createMessagesStreamEncoder, renderMessagesError };
export { decodeMessagesFinishReason, encodeMessagesFinishReason } from './finish-reason.js';
export { decodeMessagesUsage, encodeMessagesUsage, encodeMessagesDeltaUsage } from './usage.js';

// Outbound: the gateway calls an Anthropic upstream.
export { encodeMessagesRequest } from './request-encoder.js';
export type { EncodeMessagesRequestOptions, MessagesUpstreamRequest } from './request-encoder.js';
export { decodeMessagesResponse } from './response-decoder.js';
export { createMessagesStreamDecoder } from './stream-decoder.js';
export { createMessagesStreamRelay } from './stream-relay.js';
export type { MessagesStreamRelayOptions } from './stream-relay.js';
export type { MessagesStreamDecoder } from './stream-decoder.js';
export { parseMessagesError, parseMessagesStreamError } from './upstream-error.js';
export type { ParseMessagesErrorOptions } from './upstream-error.js';
export { encodeMessagesCountTokensRequest, decodeMessagesCountTokensResponse } from './upstream-count-tokens.js';
export { encodeMessagesToolId } from './tool-id.js';
export { messagesThinkingBudgets } from './thinking-encoder.js';
