import type { HttpResponse } from './types.js';
import { GatewayError } from '../canonical/index.js';
import type { InboundCodec } from '../protocols/codec.js';
import type { Logger } from '../logger.js';
import { noteErrorCode } from './request-log-notes.js';
import { sendJson } from './send-json.js';

/** Any thrown value as a GatewayError; unexpected ones become a 500 that reveals nothing internal. */
export function toGatewayError(error: unknown, logger: Logger, requestId: string): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  logger.error({ requestId, err: error }, 'unexpected error');
  return new GatewayError({
    code: 'INTERNAL_ERROR',
    message: `The gateway failed unexpectedly. Quote request id ${requestId} when reporting this.`,
    cause: error,
  });
}

/**
 * Writes `error` as `codec`'s protocol-native error answer, with `x-should-retry` from its
 * `retryable`: the OpenAI and Anthropic SDKs (and Claude Code) obey that header before their status
 * rule (retry 408, 409, 429 and 5xx), so a wrong key or a refused provider credential (a 502) fails
 * at once with the gateway's message instead of after minutes of silent retries.
 */
export function sendError(res: HttpResponse, codec: InboundCodec, error: GatewayError, requestId: string): void {
  const rendered = codec.renderError(error, requestId);
  rendered.headers['x-should-retry'] = error.retryable ? 'true' : 'false';
  noteErrorCode(res, error.code);
  sendJson(res, rendered.status, rendered.body, requestId, rendered.headers);
}
