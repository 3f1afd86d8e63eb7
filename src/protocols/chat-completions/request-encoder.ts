import { quoteCallerText, unknownFieldError, unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalRequest, ResponseFormat } from '../../canonical/index.js';
import type { ChatDialect, ChatEncodeOptions } from './dialect.js';
import { mergeChatFields } from './extension-fields.js';
import { encodeChatMessages, type ChatWireMessage } from './message-encoder.js';
import { encodeChatReasoningFields } from './reasoning-encoder.js';
import { chatFields } from './request-fields.js';
import { encodeChatToolFields } from './tools-encoder.js';
import { encodeOpenAISafetyIdentifier } from '../openai-safety-identifier.js';

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
      throw unsupportedFeatureError('JSON output', model, { param: 'response_format' });
    case 'json-schema': {
      if (!dialect.responseFormats.includes('json_schema')) {
        throw unsupportedFeatureError('JSON schema output', model, { param: 'response_format' });
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

/** Sampling settings onto `body`, in the dialect's field names. */
function addSampling(body: ChatWireRequest, request: CanonicalRequest, dialect: ChatDialect): void {
  const { sampling, model } = request;
  if (sampling === undefined) return;
  if (sampling.topK !== undefined && !dialect.topK) throw unsupportedFeatureError('top_k', model, { param: 'top_k' });
  if (sampling.seed !== undefined && dialect.seedField === 'none') throw unsupportedFeatureError('seed', model, { param: 'seed' });
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  if (sampling.topK !== undefined) body.top_k = sampling.topK;
  if (sampling.presencePenalty !== undefined) body.presence_penalty = sampling.presencePenalty;
  if (sampling.frequencyPenalty !== undefined) body.frequency_penalty = sampling.frequencyPenalty;
  if (sampling.seed !== undefined) body[dialect.seedField] = sampling.seed;
}

/** The end user and tags onto `body`, where the dialect has fields for them. */
function addMetadata(body: ChatWireRequest, request: CanonicalRequest, dialect: ChatDialect): void {
  const { userId, tags } = request.metadata ?? {};
  if (userId !== undefined && dialect.userField !== 'none') {
    body[dialect.userField] = dialect.userField === 'safety_identifier' ? encodeOpenAISafetyIdentifier(userId) : userId;
  }
  if (tags !== undefined && dialect.metadata) body.metadata = tags;
}

/** `fields` onto `body` (helpers return small objects for the rarer features). */
function assign(body: ChatWireRequest, fields: object): void {
  for (const key in fields) body[key] = (fields as Record<string, unknown>)[key];
}

/**
 * The top-level `extensions.chat` fields (same-protocol passthrough: `n`, `logprobs`,
 * `logit_bias`, vendor extras, …) the dialect takes. A field it does not take is dropped when it
 * is a hint and refused otherwise: `UNKNOWN_FIELD` with a suggestion when Chat has no such field
 * (a typo), `UNSUPPORTED_FEATURE` when it does.
 */
function passthroughFields(fields: Record<string, unknown>, model: string, options: ChatEncodeOptions): Record<string, unknown> {
  const { only, except } = options.dialect.extensionFields;
  const kept: Record<string, unknown> = {};
  for (const key in fields) {
    const allowed = (only === undefined || only.includes(key)) && !(except ?? []).includes(key);
    if (allowed) kept[key] = fields[key];
    else if (!chatFields.known.has(key)) throw unknownFieldError(key, chatFields, model);
    else if (!options.hintFields.has(key)) throw unsupportedFeatureError(`the '${quoteCallerText(key)}' field`, model, { param: key });
  }
  return kept;
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
  // Built field by field in wire order: this runs on every request.
  const body: ChatWireRequest = {
    model,
    messages: encodeChatMessages(request.system, request.messages, { dialect, model }),
    stream: request.stream === true,
  };
  // Always asked for (not only when the caller wants it): usage is needed for other protocols' answers and the ledger.
  if (request.stream && dialect.streamUsage === 'include_usage') body.stream_options = { include_usage: true };
  if (request.maxOutputTokens !== undefined) body[dialect.maxTokensField] = request.maxOutputTokens;
  addSampling(body, request, dialect);
  if (request.stopSequences !== undefined) body.stop = request.stopSequences;
  if (request.tools !== undefined) assign(body, encodeChatToolFields(request, dialect));
  if (request.responseFormat !== undefined) assign(body, encodeResponseFormat(request.responseFormat, dialect, model));
  if (request.reasoning !== undefined) assign(body, encodeChatReasoningFields(request.reasoning, dialect, model));
  if (request.metadata !== undefined) addMetadata(body, request, dialect);
  const extensionFields = request.extensions?.chat;
  return extensionFields === undefined ? body : mergeChatFields(body, passthroughFields(extensionFields, request.model, options));
}
