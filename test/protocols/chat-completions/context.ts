import type { CanonicalRequest } from '../../../src/canonical/index.js';
import type { EncodeContext } from '../../../src/protocols/codec.js';

/** An encode context for `gpt-test` answering request `req_abc123` at a fixed time. */
export function createTestContext(request: Partial<CanonicalRequest> = {}): EncodeContext {
  return {
    requestId: 'req_abc123',
    created: 1730000000,
    request: { model: 'gpt-test', messages: [], stream: false, ...request },
  };
}
