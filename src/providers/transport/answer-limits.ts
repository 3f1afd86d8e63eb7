import { GatewayError } from '../../canonical/index.js';

/** Default largest upstream answer: far above any text answer, below what would hurt the process. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** Most of an upstream's error body kept: its message is in the first few hundred bytes. */
export const ERROR_BODY_MAX = 64 * 1024;

/** An upstream answer (or one event of a stream) past the configured size: the provider's fault, not the caller's. */
export function answerTooLarge(maxBytes: number): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_ANSWER_TOO_LARGE',
    message: `The provider's answer was larger than this gateway accepts (${maxBytes} bytes in one answer or stream event); it was not passed on.`,
  });
}
