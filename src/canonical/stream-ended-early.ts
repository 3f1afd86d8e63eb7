import { GatewayError } from './errors.js';

/**
 * The one error for a provider's stream that stopped before its answer was finished (no end
 * marker, no finish reason, or the connection lost), whichever protocol or layer notices it.
 * Retryable: nothing of the answer was kept.
 */
export function streamEndedEarly(message = "The provider's stream ended before the answer was finished.", cause?: unknown): GatewayError {
  return new GatewayError({ code: 'STREAM_ENDED_EARLY', message, ...(cause === undefined ? {} : { cause }) });
}
