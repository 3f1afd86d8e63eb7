import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../canonical/index.js';

const versionShape = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Messages calls must name an API version, as Anthropic's own API requires. Any dated version is
 * accepted (0.x SDKs send `2023-06-01`, 1.x SDKs `2026-10-21`): the wire shape is the same.
 */
export function checkAnthropicVersion(headers: IncomingHttpHeaders): void {
  const version = headers['anthropic-version'];
  if (version === undefined || version === '') {
    throw new GatewayError({
      code: 'MISSING_ANTHROPIC_VERSION',
      param: 'anthropic-version',
      message: "The 'anthropic-version' header is required on /v1/messages, e.g. 'anthropic-version: 2023-06-01'.",
    });
  }
  if (typeof version !== 'string' || !versionShape.test(version.trim())) {
    throw new GatewayError({
      code: 'INVALID_ANTHROPIC_VERSION',
      param: 'anthropic-version',
      message: `The 'anthropic-version' header must be a date such as 2023-06-01; got '${String(version).slice(0, 40)}'.`,
    });
  }
}
