import { z } from 'zod';
import { GatewayError, type CanonicalRequest } from '../../canonical/index.js';
import { encodeResponsesRequest } from './request-encoder.js';

/** The fields `POST /v1/responses/input_tokens` takes: what goes into the model, none of the output or storage settings. */
const inputTokensFields: ReadonlySet<string> = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'text',
  'truncation',
  'conversation',
  'previous_response_id',
  'personality',
]);

/** Canonical request → `input_tokens` body: encoded like a Responses request, keeping only the fields that endpoint takes. */
export function encodeResponsesInputTokensRequest(request: CanonicalRequest): Record<string, unknown> {
  const body = encodeResponsesRequest({ ...request, stream: false }, { stream: false });
  return Object.fromEntries(Object.entries(body).filter(([key]) => inputTokensFields.has(key)));
}

const inputTokensResponseSchema = z.looseObject({ input_tokens: z.number().int().nonnegative() });

/** `{"object": "response.input_tokens", "input_tokens": N}` → N. */
export function decodeResponsesInputTokensResponse(body: unknown): number {
  const parsed = inputTokensResponseSchema.safeParse(body);
  if (parsed.success) return parsed.data.input_tokens;
  throw new GatewayError({
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: 'The Responses upstream answered input_tokens without an input_tokens count.',
    cause: body,
  });
}
