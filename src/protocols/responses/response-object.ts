import type { CanonicalRequest, ResponseFormat } from '../../canonical/index.js';
import type { EncodeContext } from '../codec.js';
import { readResponsesExtensions } from './extensions.js';
import type { ResponsesOutputItem } from './output-items.js';
import { encodeResponsesToolChoice } from './tool-choice.js';
import { encodeResponsesTools } from './tools.js';
import type { ResponsesUsage } from './usage.js';

export type ResponsesObjectStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/** What changes between the lifecycle snapshots of one response. */
export interface ResponsesObjectState {
  id: string;
  status: ResponsesObjectStatus;
  output: ResponsesOutputItem[];
  usage: ResponsesUsage | null;
  error: { code: string; message: string } | null;
  incompleteDetails: { reason: string } | null;
}

/** `text.format` for a canonical response format (plain text when none). */
export function encodeResponsesTextFormat(format: ResponseFormat | undefined): Record<string, unknown> {
  switch (format?.type) {
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        name: format.name ?? 'response',
        schema: format.schema,
        ...(format.description === undefined ? {} : { description: format.description }),
        ...(format.strict === undefined ? {} : { strict: format.strict }),
      };
    default:
      return { type: 'text' };
  }
}

/** `instructions` as sent: the system part that is not marked as a system/developer input message. */
function encodeInstructions(request: CanonicalRequest): string | null {
  const part = request.system?.find((candidate) => readResponsesExtensions(candidate).role === undefined);
  return part?.text ?? null;
}

/** Concatenated `output_text` parts, the SDK's `output_text` convenience field. */
export function encodeResponsesOutputText(output: readonly ResponsesOutputItem[]): string {
  let textValue = '';
  for (const item of output) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as { type?: unknown; text?: unknown }[]) {
      if (part.type === 'output_text' && typeof part.text === 'string') textValue += part.text;
    }
  }
  return textValue;
}

/**
 * The Response object: the non-streaming body and the `response` of every lifecycle event.
 * Request settings are echoed as the caller sent them (defaults where the caller sent none).
 */
export function encodeResponsesObject(context: EncodeContext, state: ResponsesObjectState): Record<string, unknown> {
  const { request } = context;
  const extensions = readResponsesExtensions(request);
  // Built field by field in wire order, echoed fields only where the caller sent them: hot-path
  // rule 1 (docs/architecture.md#hot-path-rules).
  const echo = (out: Record<string, unknown>, key: string): void => {
    if (extensions[key] !== undefined) out[key] = extensions[key];
  };
  const textExtension = typeof extensions.text === 'object' && extensions.text !== null ? extensions.text : undefined;
  const out: Record<string, unknown> = {
    id: state.id,
    object: 'response',
    created_at: context.created,
    status: state.status,
    completed_at: state.status === 'completed' ? context.created : null,
    background: extensions.background === true,
    error: state.error,
    incomplete_details: state.incompleteDetails,
    instructions: encodeInstructions(request),
    max_output_tokens: request.maxOutputTokens ?? null,
  };
  echo(out, 'max_tool_calls');
  out.model = request.model;
  out.output = state.output;
  out.output_text = encodeResponsesOutputText(state.output);
  out.parallel_tool_calls = request.parallelToolCalls ?? true;
  out.previous_response_id = typeof extensions.previous_response_id === 'string' ? extensions.previous_response_id : null;
  echo(out, 'conversation');
  echo(out, 'prompt');
  echo(out, 'prompt_cache_key');
  echo(out, 'prompt_cache_retention');
  out.reasoning = { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null };
  echo(out, 'service_tier');
  out.store = extensions.store === true;
  out.temperature = request.sampling?.temperature ?? 1;
  const format = encodeResponsesTextFormat(request.responseFormat);
  out.text = textExtension === undefined ? { format } : { format, ...textExtension };
  out.tool_choice = extensions.tool_choice ?? encodeResponsesToolChoice(request.toolChoice);
  out.tools = encodeResponsesTools(request.tools ?? []);
  echo(out, 'top_logprobs');
  out.top_p = request.sampling?.topP ?? 1;
  out.truncation = extensions.truncation === 'auto' ? 'auto' : 'disabled';
  out.usage = state.usage;
  out.user = typeof extensions.user === 'string' ? extensions.user : null;
  out.metadata = request.metadata?.tags ?? {};
  out.access_programs = null;
  return out;
}
