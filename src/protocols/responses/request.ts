import type {
  CanonicalRequest,
  ReasoningConfig,
  RequestMetadata,
  ResponseFormat,
  SamplingOptions,
  TextPart,
} from '../../canonical/index.js';
import { misdirectedBodyError } from '../misdirected-body.js';
import { decodeResponsesExtensions } from './extensions.js';
import { decodeResponsesInput } from './input.js';
import { decodePlainResponsesRequest } from './request-fast-path.js';
import { ResponsesRequestSchema, type ResponsesReasoning, type ResponsesTextFormat } from './schema.js';
import { decodeResponsesToolChoice } from './tool-choice.js';
import { decodeResponsesTools } from './tools.js';
import { createResponsesInvalidBodyError, validateResponsesWire } from './validate-wire.js';

function decodeResponseFormat(format: ResponsesTextFormat): ResponseFormat {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema':
      return {
        type: 'json-schema',
        schema: format.schema,
        name: format.name,
        ...(typeof format.description === 'string' ? { description: format.description } : {}),
        ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
      };
  }
}

function decodeReasoning(reasoning: ResponsesReasoning): { config?: ReasoningConfig; extension: Record<string, unknown> } {
  const { effort, summary, generate_summary, ...extension } = reasoning;
  const config: ReasoningConfig = {};
  if (effort != null) {
    config.effort = effort;
    if (effort === 'none') config.mode = 'disabled';
  }
  const summaryMode = summary ?? generate_summary;
  if (summaryMode != null) config.summary = summaryMode;
  return { ...(Object.keys(config).length === 0 ? {} : { config }), extension };
}

function withoutNulls(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * Decodes a Responses request body into the canonical request.
 *
 * `instructions` becomes the first `system` part; leading system/developer input messages follow
 * (marked `{ role }` in their extensions). Fields without a canonical home stay in
 * `extensions.responses` under their wire names; `null` values and the documented defaults
 * `background: false` and `truncation: "disabled"` mean "not set" and are not kept.
 * @throws GatewayError `invalid_request` / `INVALID_REQUEST_BODY` with `param` naming the field.
 */
export function decodeResponsesRequest(body: unknown): CanonicalRequest {
  return decodePlainResponsesRequest(body) ?? decodeResponsesRequestBySchema(body);
}

/** The full decoder: every request `decodePlainResponsesRequest` does not recognise. Exported for its property test. */
export function decodeResponsesRequestBySchema(body: unknown): CanonicalRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw createResponsesInvalidBodyError([], 'the body must be a JSON object');
  }
  // `input` is optional (a stored prompt or conversation may stand in for it), so a Chat or
  // Messages body would pass the schema and be refused later for its `messages` field.
  if ('messages' in body) {
    const misdirected = misdirectedBodyError(body, 'responses');
    if (misdirected !== undefined) throw misdirected;
  }
  const {
    model,
    input,
    instructions,
    max_output_tokens,
    temperature,
    top_p,
    tools,
    tool_choice,
    parallel_tool_calls,
    text,
    reasoning,
    metadata,
    user,
    safety_identifier,
    stream,
    background,
    truncation,
    ...rest
  } = validateResponsesWire(ResponsesRequestSchema, body, []);

  const decodedInput = decodeResponsesInput(input, ['input']);
  const system: TextPart[] = [
    ...(typeof instructions === 'string' ? [{ type: 'text' as const, text: instructions }] : []),
    ...decodedInput.system,
  ];

  const extension: Record<string, unknown> = { ...rest };
  if (background === true) extension.background = true;
  if (truncation === 'auto') extension.truncation = truncation;
  if (typeof user === 'string') extension.user = user;

  const request: CanonicalRequest = { model, messages: decodedInput.messages, stream: stream === true };
  if (system.length > 0) request.system = system;
  if (tools != null && tools.length > 0) request.tools = decodeResponsesTools(tools, ['tools']);
  if (tool_choice != null) {
    const decoded = decodeResponsesToolChoice(tool_choice, ['tool_choice']);
    if (decoded.toolChoice !== undefined) request.toolChoice = decoded.toolChoice;
    if (decoded.extension !== undefined) extension.tool_choice = decoded.extension;
  }
  if (typeof parallel_tool_calls === 'boolean') request.parallelToolCalls = parallel_tool_calls;

  const sampling: SamplingOptions = {};
  if (typeof temperature === 'number') sampling.temperature = temperature;
  if (typeof top_p === 'number') sampling.topP = top_p;
  if (Object.keys(sampling).length > 0) request.sampling = sampling;
  if (typeof max_output_tokens === 'number') request.maxOutputTokens = max_output_tokens;

  if (text != null) {
    const { format, ...textRest } = text;
    if (format != null) request.responseFormat = decodeResponseFormat(format);
    const kept = withoutNulls(textRest);
    if (Object.keys(kept).length > 0) extension.text = kept;
  }
  if (reasoning != null) {
    const decoded = decodeReasoning(reasoning);
    if (decoded.config !== undefined) request.reasoning = decoded.config;
    const kept = withoutNulls(decoded.extension);
    if (Object.keys(kept).length > 0) extension.reasoning = kept;
  }

  const requestMetadata: RequestMetadata = {};
  const userId = safety_identifier ?? user;
  if (typeof userId === 'string') requestMetadata.userId = userId;
  if (metadata != null) requestMetadata.tags = metadata;
  if (Object.keys(requestMetadata).length > 0) request.metadata = requestMetadata;

  const { extensions } = decodeResponsesExtensions(extension);
  if (extensions !== undefined) request.extensions = extensions;
  return request;
}
