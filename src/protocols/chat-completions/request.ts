import type { CanonicalRequest, ReasoningConfig, RequestMetadata, ResponseFormat, SamplingOptions } from '../../canonical/index.js';
import { misdirectedBodyError } from '../misdirected-body.js';
import { decodeChatMessages } from './messages.js';
import { createChatRequestError } from './request-error.js';
import { decodePlainChatRequest } from './request-fast-path.js';
import { chatRequestSchema, type ChatRequest, type ChatResponseFormat } from './schema.js';
import { decodeChatToolChoice, decodeChatTools } from './tools.js';
import { pickUnknownFields } from '../unknown-fields.js';

/** Top-level fields with a canonical home; every other field is kept in `extensions.chat`. */
const mappedFields = [
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_completion_tokens',
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'stop',
  'tools',
  'functions',
  'tool_choice',
  'function_call',
  'parallel_tool_calls',
  'response_format',
  'reasoning_effort',
  'thinking',
  'reasoning',
  'metadata',
  'user',
  'safety_identifier',
];

/** Fields whose default value asks for nothing; sent with that value they are not kept. */
function isDefaultValue(key: string, value: unknown): boolean {
  if (key === 'n') return value === 1;
  if (key === 'logprobs') return value === false;
  if (key === 'modalities') return Array.isArray(value) && value.length === 1 && value[0] === 'text';
  return false;
}

/** `object` without its undefined and null fields; undefined when none is left. */
function defined<T extends object>(object: T): T | undefined {
  let kept: Record<string, unknown> | undefined;
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && value !== null) (kept ??= {})[key] = value;
  }
  return kept as T | undefined;
}

function decodeSampling(body: ChatRequest): SamplingOptions | undefined {
  return defined({
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: body.top_k ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    seed: body.seed ?? undefined,
  });
}

function decodeResponseFormat(format: ChatResponseFormat | null | undefined): ResponseFormat | undefined {
  if (format === undefined || format === null) return undefined;
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema': {
      const { name, description, schema, strict } = format.json_schema;
      return {
        type: 'json-schema',
        schema: schema ?? {},
        name,
        ...(description === undefined || description === null ? {} : { description }),
        ...(strict === undefined || strict === null ? {} : { strict }),
      };
    }
  }
}

/**
 * `reasoning_effort` (`none` → disabled), plus the common non-standard LiteLLM `thinking`
 * and OpenRouter `reasoning` objects; `reasoning_effort` wins over both, `thinking` over `reasoning`.
 */
function decodeReasoning(body: ChatRequest): ReasoningConfig | undefined {
  const { reasoning, thinking, reasoning_effort: effort } = body;
  const enabled = reasoning?.enabled ?? undefined;
  return defined<ReasoningConfig>({
    ...defined({
      mode: enabled === undefined ? undefined : enabled ? ('enabled' as const) : ('disabled' as const),
      effort: reasoning?.effort ?? undefined,
      budgetTokens: reasoning?.max_tokens ?? undefined,
    }),
    ...defined({
      mode: thinking?.type,
      budgetTokens: thinking?.budget_tokens ?? undefined,
      display: thinking?.display ?? undefined,
    }),
    ...(effort === undefined || effort === null ? {} : { effort, ...(effort === 'none' ? { mode: 'disabled' as const } : {}) }),
  });
}

function decodeMetadata(body: ChatRequest): RequestMetadata | undefined {
  return defined<RequestMetadata>({
    userId: body.safety_identifier ?? body.user ?? undefined,
    tags: body.metadata ?? undefined,
  });
}

/** What the mapped fields leave over: sub-fields without a home and superseded aliases. */
function decodeLeftovers(body: ChatRequest): Record<string, unknown> {
  const leftovers: Record<string, unknown> = {};
  const streamOptions = body.stream_options && pickUnknownFields(body.stream_options, ['include_usage']);
  if (streamOptions !== undefined && streamOptions !== null) leftovers.stream_options = streamOptions;
  const thinking = body.thinking && pickUnknownFields(body.thinking, ['type', 'budget_tokens', 'display']);
  if (thinking !== undefined && thinking !== null) leftovers.thinking = thinking;
  const reasoning = body.reasoning && pickUnknownFields(body.reasoning, ['effort', 'max_tokens', 'enabled']);
  if (reasoning !== undefined && reasoning !== null) leftovers.reasoning = reasoning;
  const bothMax = body.max_tokens !== undefined && body.max_tokens !== null && body.max_completion_tokens != null;
  if (bothMax) leftovers.max_tokens = body.max_tokens;
  if (body.user !== undefined && body.user !== null && body.safety_identifier != null) leftovers.user = body.user;
  return leftovers;
}

function decodeExtensions(body: ChatRequest): Record<string, unknown> | undefined {
  const leftovers = decodeLeftovers(body);
  const unknown = pickUnknownFields(body, mappedFields);
  let extensions: Record<string, unknown> | undefined;
  for (const key in unknown) {
    if (!isDefaultValue(key, unknown[key])) (extensions ??= {})[key] = unknown[key];
  }
  for (const key in leftovers) (extensions ??= {})[key] = leftovers[key];
  return extensions;
}

/**
 * An OpenAI Chat Completions request body → the canonical request.
 *
 * Fields with no canonical home keep their wire name in `extensions.chat` (unknown fields too).
 * @throws GatewayError `invalid_request` / `INVALID_REQUEST_BODY`, `param` naming the wire field.
 * @example
 * decodeChatRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
 * // → { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false }
 */
export function decodeChatRequest(body: unknown): CanonicalRequest {
  return decodePlainChatRequest(body) ?? decodeChatRequestBySchema(body);
}

/** The full decoder: every request `decodePlainChatRequest` does not recognise. Exported for its property test. */
export function decodeChatRequestBySchema(body: unknown): CanonicalRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) throw misdirectedBodyError(body, 'chat') ?? createChatRequestError(parsed.error);
  const wire = parsed.data;
  const { system, messages } = decodeChatMessages(wire.messages);
  const tools = decodeChatTools(wire);
  const legacyOnly = tools !== undefined && (wire.tools ?? []).length === 0;
  const stop = wire.stop ?? undefined;
  const stopSequences = typeof stop === 'string' ? [stop] : stop;
  const request: CanonicalRequest = {
    model: wire.model,
    ...(system.length === 0 ? {} : { system }),
    messages,
    ...defined({
      tools,
      toolChoice: decodeChatToolChoice(wire),
      // The deprecated `functions` API never answers with more than one call.
      parallelToolCalls: wire.parallel_tool_calls ?? (legacyOnly ? false : undefined),
      sampling: decodeSampling(wire),
      maxOutputTokens: wire.max_completion_tokens ?? wire.max_tokens ?? undefined,
      stopSequences: stopSequences === undefined || stopSequences.length === 0 ? undefined : stopSequences,
      responseFormat: decodeResponseFormat(wire.response_format),
      reasoning: decodeReasoning(wire),
      metadata: decodeMetadata(wire),
      includeUsage: wire.stream_options?.include_usage ?? undefined,
    }),
    stream: wire.stream ?? false,
  };
  const extensions = decodeExtensions(wire);
  return extensions === undefined ? request : { ...request, extensions: { chat: extensions } };
}
