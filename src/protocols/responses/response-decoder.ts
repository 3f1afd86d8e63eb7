import { GatewayError, type CanonicalResponse } from '../../canonical/index.js';
import { decodeResponsesFinishReason } from './finish-reason.js';
import { decodeResponsesOutputItem } from './output-decoder.js';
import { decodeResponsesFailure } from './upstream-error.js';
import { isPlainResponsesObject, parseUnlessPlain } from './upstream-fast-path.js';
import { UpstreamResponseSchema } from './upstream-schema.js';
import { decodeResponsesUsage } from './usage.js';

/**
 * An upstream Response object (the non-streaming body) → the canonical response. `completed`
 * with function calls → finish `tool-calls`; `incomplete` → `length` (`max_output_tokens`) or
 * `content-filter`; usage keeps cached and reasoning tokens.
 * @throws GatewayError when the response `failed` (from its `error`), or is not a Response object.
 */
export function decodeResponsesResponse(body: unknown): CanonicalResponse {
  const parsed = parseUnlessPlain(UpstreamResponseSchema, isPlainResponsesObject, body);
  if (!parsed.success || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError({
      code: 'UPSTREAM_INVALID_RESPONSE',
      message: 'The provider answered with something that is not a Responses object.',
      cause: body,
    });
  }
  const response = parsed.data;
  const status = response.status ?? 'completed';
  if (status === 'failed') throw decodeResponsesFailure(response.error);
  const content = (response.output ?? []).flatMap((item) => decodeResponsesOutputItem(item));
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  return {
    id: response.id ?? '',
    model: response.model ?? '',
    content,
    finishReason: decodeResponsesFinishReason(status, response.incomplete_details?.reason ?? undefined, hasToolCalls),
    usage: decodeResponsesUsage(response.usage),
  };
}
