import type { CanonicalRequest } from '../../canonical/index.js';
import { decodeResponsesRequest } from './request.js';

/**
 * `POST /v1/responses/input_tokens` (the OpenAI SDK's `responses.inputTokens.count()`) takes the
 * input half of a Responses body; it decodes like one, with no output budget and no stream.
 */
export function decodeResponsesInputTokensRequest(body: unknown): CanonicalRequest {
  const { maxOutputTokens: _unused, ...request } = decodeResponsesRequest(body);
  return { ...request, stream: false };
}

/** The input_tokens answer body. */
export function encodeResponsesInputTokensResponse(inputTokens: number): { object: 'response.input_tokens'; input_tokens: number } {
  return { object: 'response.input_tokens', input_tokens: inputTokens };
}
