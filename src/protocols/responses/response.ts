import type { CanonicalResponse } from '../../canonical/index.js';
import type { EncodeContext } from '../codec.js';
import { encodeResponsesFinishReason } from './finish-reason.js';
import { encodeResponsesOutput } from './output-items.js';
import { encodeResponsesObject } from './response-object.js';
import { encodeResponsesUsage } from './usage.js';
import { encodeResponsesId } from './wire-id.js';

/** Message of the `error` a failed response carries (the canonical response has no error text). */
const failedMessage = 'The model failed to produce an answer.';

/**
 * Encodes a finished canonical answer as the Responses non-streaming body. The status comes from
 * the finish reason: `length` → `incomplete` (`max_output_tokens`), `content-filter` →
 * `incomplete` (`content_filter`), `error` → `failed`, anything else → `completed`.
 */
export function encodeResponsesResponse(response: CanonicalResponse, context: EncodeContext): Record<string, unknown> {
  const hasToolCalls = response.content.some((part) => part.type === 'tool-call');
  const terminal = encodeResponsesFinishReason(response.finishReason, hasToolCalls);
  const output = encodeResponsesOutput(
    response.content,
    context.requestId,
    context.request,
    terminal.status === 'completed' ? 'completed' : 'incomplete',
  );
  return encodeResponsesObject(context, {
    id: encodeResponsesId(context.requestId, response.id),
    status: terminal.status,
    output,
    usage: encodeResponsesUsage(response.usage),
    error: terminal.status === 'failed' ? { code: 'server_error', message: failedMessage } : null,
    incompleteDetails: terminal.incomplete_details,
  });
}
