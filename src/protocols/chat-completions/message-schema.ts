import { z } from 'zod';

/*
 * Chat message and content-part schemas (openai@7 `ChatCompletionMessageParam`). Objects are
 * loose (unknown keys go to `extensions.chat`); optional fields accept `null` as the SDK types do.
 */

/** Content-part `type`s this schema knows; any other `type` is carried verbatim. */
const knownPartTypes: ReadonlySet<string> = new Set(['text', 'image_url', 'input_audio', 'file', 'refusal']);

/** An object whose `type` is a string outside `known` (carried verbatim by the decoder). */
export function chatOtherTypeSchema(known: ReadonlySet<string>) {
  return z.looseObject({
    type: z.string().refine((type) => !known.has(type), { message: 'unsupported type', abort: true }),
  });
}

const promptCacheBreakpointSchema = z.looseObject({ mode: z.string(), ttl: z.string().nullish() });

export const chatTextPartSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  prompt_cache_breakpoint: promptCacheBreakpointSchema.nullish(),
});

export const chatImagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string(), detail: z.enum(['auto', 'low', 'high', 'original']).nullish() }),
  prompt_cache_breakpoint: promptCacheBreakpointSchema.nullish(),
});

export const chatAudioPartSchema = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
  prompt_cache_breakpoint: promptCacheBreakpointSchema.nullish(),
});

export const chatFilePartSchema = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    file_data: z.string().nullish(),
    file_id: z.string().nullish(),
    filename: z.string().nullish(),
  }),
  prompt_cache_breakpoint: promptCacheBreakpointSchema.nullish(),
});

export const chatRefusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** A content part whose `type` this schema does not know (vLLM `video_url`, …). */
export const chatOtherPartSchema = chatOtherTypeSchema(knownPartTypes);

const partsError = { error: 'expected a string or an array of content parts' };
export const chatTextContentSchema = z.union([z.string(), z.array(chatTextPartSchema)], {
  error: 'expected a string or an array of text parts',
});

export const chatKnownUserPartSchema = z.discriminatedUnion(
  'type',
  [chatTextPartSchema, chatImagePartSchema, chatAudioPartSchema, chatFilePartSchema],
  { error: 'expected a content part type: text, image_url, input_audio or file' },
);
export const chatUserPartSchema = z.union([chatKnownUserPartSchema, chatOtherPartSchema]);

export const chatKnownAssistantPartSchema = z.discriminatedUnion('type', [chatTextPartSchema, chatRefusalPartSchema], {
  error: 'expected a content part type: text or refusal',
});
export const chatAssistantPartSchema = z.union([chatKnownAssistantPartSchema, chatOtherPartSchema]);

export const chatFunctionToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

export const chatCustomToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('custom'),
  custom: z.looseObject({ name: z.string(), input: z.string() }),
});

export const chatToolCallSchema = z.union([chatFunctionToolCallSchema, chatCustomToolCallSchema]);

/** LiteLLM-style reasoning history with Anthropic signatures. */
export const chatThinkingBlockSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().nullish() }),
    z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  ],
  { error: 'expected a thinking block type: thinking or redacted_thinking' },
);

const nameSchema = z.string().nullish();
export const chatSystemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: chatTextContentSchema,
  name: nameSchema,
});

export const chatDeveloperMessageSchema = z.looseObject({
  role: z.literal('developer'),
  content: chatTextContentSchema,
  name: nameSchema,
});

export const chatUserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(chatUserPartSchema)], partsError),
  name: nameSchema,
});

export const chatAssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.union([z.string(), z.array(chatAssistantPartSchema)], partsError).nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(chatToolCallSchema).nullish(),
  function_call: z.looseObject({ name: z.string(), arguments: z.string() }).nullish(),
  audio: z.looseObject({ id: z.string() }).nullish(),
  name: nameSchema,
  reasoning_content: z.string().nullish(),
  thinking_blocks: z.array(chatThinkingBlockSchema).nullish(),
});

export const chatToolMessageSchema = z.looseObject({
  role: z.literal('tool'),
  content: chatTextContentSchema,
  tool_call_id: z.string(),
});

/** Deprecated result of a legacy `function_call`. */
export const chatFunctionMessageSchema = z.looseObject({
  role: z.literal('function'),
  name: z.string(),
  content: z.string().nullable(),
});

export const chatMessageSchema = z.discriminatedUnion(
  'role',
  [
    chatSystemMessageSchema,
    chatDeveloperMessageSchema,
    chatUserMessageSchema,
    chatAssistantMessageSchema,
    chatToolMessageSchema,
    chatFunctionMessageSchema,
  ],
  { error: 'expected a role: system, developer, user, assistant, tool or function' },
);

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatAssistantMessage = z.infer<typeof chatAssistantMessageSchema>;
export type ChatTextPart = z.infer<typeof chatTextPartSchema>;
export type ChatUserPart = z.infer<typeof chatUserPartSchema>;
export type ChatKnownUserPart = z.infer<typeof chatKnownUserPartSchema>;
export type ChatAssistantPart = z.infer<typeof chatAssistantPartSchema>;
export type ChatKnownAssistantPart = z.infer<typeof chatKnownAssistantPartSchema>;
export type ChatOtherPart = z.infer<typeof chatOtherPartSchema>;
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;

/** True for a user content part of a `type` the schema validated (not carried verbatim). */
export function isChatKnownUserPart(part: ChatUserPart): part is ChatKnownUserPart {
  return knownPartTypes.has(part.type);
}

/** True for an assistant content part of a `type` the schema validated (not carried verbatim). */
export function isChatKnownAssistantPart(part: ChatAssistantPart): part is ChatKnownAssistantPart {
  return knownPartTypes.has(part.type);
}
