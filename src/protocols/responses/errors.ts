import type { GatewayError } from '../../canonical/index.js';
import { renderChatError } from '../chat-completions/errors.js';
import type { RenderedError } from '../codec.js';

/** Responses errors have exactly the Chat Completions body, status mapping and headers. */
export function renderResponsesError(error: GatewayError, requestId: string): RenderedError {
  return renderChatError(error, requestId);
}

/** The `code` of a Responses in-band error (`response.error.code`), from the error's kind. */
export function encodeResponsesErrorCode(error: GatewayError): string {
  switch (error.kind) {
    case 'rate_limit':
      return 'rate_limit_exceeded';
    case 'invalid_request':
      return 'invalid_prompt';
    default:
      return 'server_error';
  }
}
