import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalRequest, SamplingOptions } from '../../canonical/index.js';
import { encodeMessagesConversation, type MessagesRequestMessage } from './conversation-encoder.js';
import type { MessagesRequestBlock } from './content-encoder.js';
import { encodeMessagesThinking, type EncodedMessagesThinking } from './thinking-encoder.js';
import { encodeMessagesToolChoice, encodeMessagesTools } from './tools-encoder.js';

export interface EncodeMessagesRequestOptions {
  /** `max_tokens` when the request sets no output limit (Anthropic requires one). */
  defaultMaxTokens: number;
  /** The model as error messages name it (the gateway's id); default `request.model`. */
  modelLabel?: string;
}

/** An Anthropic `POST /v1/messages` body. Extension fields of a Messages client ride along. */
export type MessagesUpstreamRequest = {
  model: string;
  max_tokens: number;
  messages: MessagesRequestMessage[];
  system?: MessagesRequestBlock[];
  stream?: boolean;
} & Record<string, unknown>;

/** Extension keys that hold the leftovers of a nested object, merged back into it rather than copied. */
const nestedKeys = ['thinking', 'output_config', 'tool_choice', 'metadata'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sampling: `temperature` is clamped to Anthropic's 0–1. While thinking runs Anthropic accepts
 * only the defaults, so `temperature` (unless 1) and `top_k` are left out and `top_p` is raised
 * to at least 0.95. Penalties have no Anthropic equivalent (a 400 unless 0); `seed` is best
 * effort by definition and is left out.
 */
function encodeSampling(sampling: SamplingOptions | undefined, thinking: EncodedMessagesThinking, model: string) {
  const wire: Record<string, unknown> = {};
  if (sampling === undefined) return wire;
  if (sampling.presencePenalty !== undefined && sampling.presencePenalty !== 0) {
    throw unsupportedFeatureError('presence_penalty', model, { param: 'presence_penalty' });
  }
  if (sampling.frequencyPenalty !== undefined && sampling.frequencyPenalty !== 0) {
    throw unsupportedFeatureError('frequency_penalty', model, { param: 'frequency_penalty' });
  }
  if (sampling.temperature !== undefined) {
    const temperature = Math.min(1, Math.max(0, sampling.temperature));
    if (!thinking.active || temperature === 1) wire.temperature = temperature;
  }
  if (sampling.topP !== undefined) wire.top_p = thinking.active ? Math.min(1, Math.max(0.95, sampling.topP)) : sampling.topP;
  if (sampling.topK !== undefined && !thinking.active) wire.top_k = sampling.topK;
  return wire;
}

/**
 * `max_tokens`: the request's limit, else `defaultMaxTokens`. With a thinking budget it must
 * exceed the budget: when it does not, the budget is added on top (the limit then applies to
 * the visible answer).
 */
function encodeMaxTokens(request: CanonicalRequest, budget: number | undefined, defaultMaxTokens: number): number {
  const limit = request.maxOutputTokens ?? defaultMaxTokens;
  return budget !== undefined && limit > 0 && limit <= budget ? budget + limit : limit;
}

function encodeOutputConfig(request: CanonicalRequest, thinking: EncodedMessagesThinking, extra: unknown, model: string) {
  const { format: formatExtra, ...rest } = isRecord(extra) ? extra : {};
  const config: Record<string, unknown> = { ...rest };
  if (thinking.effort !== undefined) config.effort = thinking.effort;
  const format = request.responseFormat;
  if (format?.type === 'json') {
    throw unsupportedFeatureError('JSON mode without a schema (response_format json_object); send a JSON schema instead', model, {
      param: 'response_format',
    });
  }
  if (format?.type === 'json-schema') {
    config.format = { ...(isRecord(formatExtra) ? formatExtra : {}), type: 'json_schema', schema: format.schema };
  } else if (formatExtra !== undefined) {
    config.format = formatExtra;
  }
  return Object.keys(config).length === 0 ? undefined : config;
}

/**
 * Canonical request → Anthropic Messages request body. Throws GatewayError 400
 * `UNSUPPORTED_FEATURE` for what Anthropic cannot carry (audio, JSON mode without a schema,
 * penalties, other protocols' hosted tools and content, namespaced tools, unsupported media).
 * Fields a Messages client sent without a canonical home (`extensions.messages`) go back on
 * the body, message, block and tool they came from.
 */
export function encodeMessagesRequest(request: CanonicalRequest, options: EncodeMessagesRequestOptions): MessagesUpstreamRequest {
  const model = options.modelLabel ?? request.model;
  const extensions = request.extensions?.messages ?? {};
  const topLevel: Record<string, unknown> = { ...extensions };
  for (const key of nestedKeys) delete topLevel[key];

  const thinking = encodeMessagesThinking(request.reasoning, isRecord(extensions.thinking) ? extensions.thinking : undefined);
  const { system, messages } = encodeMessagesConversation(request, model);
  const tools = request.tools === undefined ? undefined : encodeMessagesTools(request.tools, request.toolChoice, model);
  const toolChoice = encodeMessagesToolChoice({
    choice: request.toolChoice,
    parallelToolCalls: request.parallelToolCalls,
    thinking: thinking.active,
    extra: isRecord(extensions.tool_choice) ? extensions.tool_choice : undefined,
    hasTools: tools !== undefined && tools.length > 0,
  });
  const outputConfig = encodeOutputConfig(request, thinking, extensions.output_config, model);
  const metadataExtra = isRecord(extensions.metadata) ? extensions.metadata : {};
  const userId = request.metadata?.userId;
  const metadata = userId === undefined ? metadataExtra : { ...metadataExtra, user_id: userId };

  const body: MessagesUpstreamRequest = {
    ...topLevel,
    model: request.model,
    max_tokens: encodeMaxTokens(request, thinking.budgetTokens, options.defaultMaxTokens),
    ...(system.length > 0 ? { system } : {}),
    messages,
    ...encodeSampling(request.sampling, thinking, model),
  };
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  if (tools !== undefined && tools.length > 0) body.tools = tools;
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (thinking.thinking !== undefined) body.thinking = thinking.thinking;
  if (outputConfig !== undefined) body.output_config = outputConfig;
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  if (request.stream) body.stream = true;
  return body;
}
