import { z } from 'zod';
import { GatewayError, type CanonicalRequest } from '../../canonical/index.js';
import { encodeMessagesRequest, type EncodeMessagesRequestOptions } from './request-encoder.js';

/**
 * The fields `POST /v1/messages/count_tokens` takes (a Messages body without output and sampling
 * settings; `context_management` and `mcp_servers` are beta fields of the same endpoint).
 */
const countTokensFields: readonly string[] = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'cache_control',
  'context_management',
  'mcp_servers',
  'speed',
  'user_profile_id',
  'workspace_id',
];

/** Canonical request → `count_tokens` body: encoded like a Messages request, keeping only the fields that endpoint takes. */
export function encodeMessagesCountTokensRequest(
  request: CanonicalRequest,
  options: Omit<EncodeMessagesRequestOptions, 'defaultMaxTokens'>,
): Record<string, unknown> {
  const body = encodeMessagesRequest({ ...request, stream: false }, { ...options, defaultMaxTokens: 1 });
  return Object.fromEntries(Object.entries(body).filter(([key]) => countTokensFields.includes(key)));
}

const countTokensResponseSchema = z.looseObject({ input_tokens: z.number().int().nonnegative() });

/** `{"input_tokens": N}` → N. */
export function decodeMessagesCountTokensResponse(body: unknown): number {
  const parsed = countTokensResponseSchema.safeParse(body);
  if (parsed.success) return parsed.data.input_tokens;
  throw new GatewayError({
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: 'Anthropic answered count_tokens without an input_tokens count.',
    cause: body,
  });
}
