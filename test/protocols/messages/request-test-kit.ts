import type { CanonicalRequest } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import { encodeMessagesRequest, type MessagesUpstreamRequest } from '../../../src/protocols/messages/request-encoder.js';

/** A one-question canonical request, with `overrides`. */
export function canonicalRequest(overrides: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    model: 'claude-sonnet-4-5',
    stream: false,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    ...overrides,
  };
}

export function encode(overrides: Partial<CanonicalRequest> = {}, defaultMaxTokens = 4096): MessagesUpstreamRequest {
  return encodeMessagesRequest(canonicalRequest(overrides), { defaultMaxTokens });
}

/** The GatewayError `encode` throws. */
export function encodeFailure(overrides: Partial<CanonicalRequest>): GatewayError {
  try {
    encodeMessagesRequest(canonicalRequest(overrides), { defaultMaxTokens: 4096, modelLabel: 'claude-gateway' });
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected encodeMessagesRequest to throw');
}
