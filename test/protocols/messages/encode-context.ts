import type { CanonicalRequest } from '../../../src/canonical/index.js';
import type { EncodeContext } from '../../../src/protocols/codec.js';

/** An encode context for a Messages client that asked for `model`. */
export function createEncodeContext(overrides: Partial<CanonicalRequest> = {}): EncodeContext {
  return {
    requestId: 'req_01TEST',
    created: 1_760_000_000,
    request: { model: 'claude-gateway', messages: [], stream: true, ...overrides },
  };
}
