import type { CanonicalRequest, ResponseFormat } from '../../canonical/index.js';
import type { ChatDialect, ChatEncodeOptions } from './dialect.js';
import { mergeChatFields } from './extension-fields.js';
import { encodeChatMessages, type ChatWireMessage } from './message-encoder.js';
import { encodeChatReasoningFields } from './reasoning-encoder.js';
import { encodeChatToolFields } from './tools-encoder.js';
import { createUnsupportedFeatureError } from './unsupported-feature.js';
import { encodeOpenAISafetyIdentifier } from '../openai-safety-identifier.js';
import { definedFields } from '../defined-fields.js';

/** A Chat Completions request body as sent upstream. */
export interface ChatWireRequest {
  model: string;
  messages: ChatWireMessage[];
  stream: boolean;
  [field: string]: unknown;
}

function encodeResponseFormat(
  format: ResponseFormat | undefined,
  dialect: ChatDialect,
  model: string,
): { response_format?: Record<string, unknown> } {
  if (format === undefined) return {};
  switch (format.type) {
    case 'text':
      return { response_format: { type: 'text' } };
    case 'json':
      if (dialect.responseFormats.includes('json_object')) return { response_format: { type: 'json_object' } };
      if (dialect.responseFormats.includes('json_schema')) {
        // The permissive schema that means "any JSON object", for servers without json_object (LM Studio).
        return { response_format: { type: 'json_schema', json_schema: { name: 'json_object', schema: { type: 'object' } } } };
      }
      throw createUnsupportedFeatureError('JSON output', model, 'response_format');
    case 'json-schema': {
      if (!dialect.responseFormats.includes('json_schema')) {
        throw createUnsupportedFeatureError('JSON schema output', model, 'response_format');
      }
      const jsonSchema = {
        name: format.name ?? 'response',
        ...(format.description === undefined ? {} : { description: format.description }),
        schema: format.schema,
        ...(format.strict === undefined ? {} : { strict: format.strict }),
      };
      return { response_format: { type: 'json_schema', json_schema: jsonSchema } };
    }
  }
}

function encodeSampling(request: CanonicalRequest, dialect: ChatDialect): Record<string, unknown> {
  const { sampling = {}, model } = request;
  if (sampling.topK !== undefined && !dialect.topK) throw createUnsupportedFeatureError('top_k', model, 'top_k');
  if (sampling.seed !== undefined && dialect.seedField === 'none') throw createUnsupportedFeatureError('seed', model, 'seed');
  const fields: Record<string, unknown> = {
    temperature: sampling.temperature,
    top_p: sampling.topP,
    top_k: sampling.topK,
    presence_penalty: sampling.presencePenalty,
    frequency_penalty: sampling.frequencyPenalty,
    [dialect.seedField]: sampling.seed,
  };
  return definedFields(fields);
}

function encodeMetadata(request: CanonicalRequest, dialect: ChatDialect): Record<string, unknown> {
  const { userId, tags } = request.metadata ?? {};
  return {
    ...(userId === undefined || dialect.userField === 'none'
      ? {}
      : { [dialect.userField]: dialect.userField === 'safety_identifier' ? encodeOpenAISafetyIdentifier(userId) : userId }),
    ...(tags === undefined || !dialect.metadata ? {} : { metadata: tags }),
  };
}

/**
 * The top-level `extensions.chat` fields (same-protocol passthrough: `n`, `logprobs`,
 * `logit_bias`, vendor extras, …) the dialect takes. A field it does not take is dropped when it
 * is a hint and refused otherwise.
 */
function passthroughFields(request: CanonicalRequest, options: ChatEncodeOptions): Record<string, unknown> {
  const { only, except } = options.dialect.extensionFields;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.extensions?.chat ?? {})) {
    const allowed = (only === undefined || only.includes(key)) && !(except ?? []).includes(key);
    if (allowed) kept[key] = value;
    else if (!options.hintFields.has(key)) throw createUnsupportedFeatureError(`the '${key}' field`, request.model, key);
  }
  return kept;
}

function encodeStreamFields(request: CanonicalRequest, dialect: ChatDialect): { stream: boolean; [field: string]: unknown } {
  if (!request.stream) return { stream: false };
  // Always asked for (not only when the caller wants it): usage is needed for other protocols' answers and the ledger.
  return dialect.streamUsage === 'include_usage' ? { stream: true, stream_options: { include_usage: true } } : { stream: true };
}

/**
 * A canonical request → the Chat Completions body for an upstream speaking `options.dialect`.
 *
 * `request.model` is the upstream model id. Fields the dialect cannot carry are refused with a
 * 400 `UNSUPPORTED_FEATURE` naming them and the model (hints excepted). When the caller spoke
 * Chat, the fields it sent without a canonical home (`extensions.chat`) go back on the body,
 * messages, parts and tools as they came.
 *
 * @example
 * encodeChatRequest({ model: 'gpt-4o', messages: [...], stream: true, maxOutputTokens: 100 },
 *   { dialect: openAIChatDialect, hintFields: chatCodec.hintFields });
 * // → { model: 'gpt-4o', messages: [...], stream: true, stream_options: { include_usage: true },
 * //     max_completion_tokens: 100 }
 */
export function encodeChatRequest(request: CanonicalRequest, options: ChatEncodeOptions): ChatWireRequest {
  const { dialect } = options;
  const { model } = request;
  const body: ChatWireRequest = {
    model,
    messages: encodeChatMessages(request.system, request.messages, { dialect, model }),
    ...encodeStreamFields(request, dialect),
    ...(request.maxOutputTokens === undefined ? {} : { [dialect.maxTokensField]: request.maxOutputTokens }),
    ...encodeSampling(request, dialect),
    ...(request.stopSequences === undefined ? {} : { stop: request.stopSequences }),
    ...encodeChatToolFields(request, dialect),
    ...encodeResponseFormat(request.responseFormat, dialect, model),
    ...encodeChatReasoningFields(request.reasoning, dialect, model),
    ...encodeMetadata(request, dialect),
  };
  return mergeChatFields(body, passthroughFields(request, options));
}
