import type { CanonicalRequest } from '../../canonical/index.js';
import { decodeMessagesRequest } from './request.js';

/**
 * `POST /v1/messages/count_tokens` takes a Messages body without `max_tokens` (and without
 * `stream`); it decodes like one, with no output budget.
 */
export function decodeMessagesCountTokensRequest(body: unknown): CanonicalRequest {
  const withBudget =
    typeof body === 'object' && body !== null && !Array.isArray(body) && !('max_tokens' in body) ? { ...body, max_tokens: 0 } : body;
  const { maxOutputTokens: _unused, ...request } = decodeMessagesRequest(withBudget);
  return { ...request, stream: false };
}

/** The count_tokens answer body. */
export function encodeMessagesCountTokensResponse(inputTokens: number): { input_tokens: number } {
  return { input_tokens: inputTokens };
}
