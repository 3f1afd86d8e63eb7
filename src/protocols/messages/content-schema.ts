import { z } from 'zod';

/**
 * An object whose `type` is none of `knownTypes`: the fallback branch of an open union, so
 * block and source types newer than this codec are kept (as provider-defined content)
 * instead of rejected. The check aborts, so a known type with a bad field reports that field.
 */
export function unknownTypeSchema(knownTypes: readonly string[]) {
  return z.looseObject({
    type: z.string().refine((type) => !knownTypes.includes(type), {
      abort: true,
      message: `expected one of ${knownTypes.map((type) => JSON.stringify(type)).join(', ')}`,
    }),
  });
}

export const messagesCacheControlSchema = z.looseObject({ type: z.string(), ttl: z.string().optional() }).nullable().optional();

const citationsConfigSchema = z.looseObject({ enabled: z.boolean().optional() }).nullable().optional();

export const messagesTextBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: messagesCacheControlSchema,
  citations: z
    .array(z.looseObject({ type: z.string() }))
    .nullable()
    .optional(),
});

const base64SourceSchema = z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() });
const urlSourceSchema = z.looseObject({ type: z.literal('url'), url: z.string() });
const fileSourceSchema = z.looseObject({ type: z.literal('file'), file_id: z.string() });

export const messagesImageSourceSchema = z.union([
  z.discriminatedUnion('type', [base64SourceSchema, urlSourceSchema, fileSourceSchema]),
  unknownTypeSchema(['base64', 'url', 'file']),
]);

export const messagesImageBlockSchema = z.looseObject({
  type: z.literal('image'),
  source: messagesImageSourceSchema,
  cache_control: messagesCacheControlSchema,
  transformations: z.looseObject({}).nullable().optional(),
});

const documentSourceKnownSchema = z.discriminatedUnion('type', [
  base64SourceSchema,
  z.looseObject({ type: z.literal('text'), media_type: z.string(), data: z.string() }),
  z.looseObject({
    type: z.literal('content'),
    content: z.union([z.string(), z.array(z.union([messagesTextBlockSchema, messagesImageBlockSchema]))]),
  }),
  urlSourceSchema,
  fileSourceSchema,
]);

export const messagesDocumentSourceSchema = z.union([
  documentSourceKnownSchema,
  unknownTypeSchema(['base64', 'text', 'content', 'url', 'file']),
]);

export const messagesDocumentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: messagesDocumentSourceSchema,
  title: z.string().nullable().optional(),
  context: z.string().nullable().optional(),
  citations: citationsConfigSchema,
  cache_control: messagesCacheControlSchema,
});

export const messagesSearchResultBlockSchema = z.looseObject({
  type: z.literal('search_result'),
  source: z.string(),
  title: z.string(),
  content: z.array(messagesTextBlockSchema),
  citations: citationsConfigSchema,
  cache_control: messagesCacheControlSchema,
});

const toolReferenceBlockSchema = z.looseObject({
  type: z.literal('tool_reference'),
  tool_name: z.string(),
  cache_control: messagesCacheControlSchema,
});

const toolResultContentTypes = ['text', 'image', 'document', 'search_result', 'tool_reference'] as const;

export const messagesToolResultContentBlockSchema = z.union(
  [
    z.discriminatedUnion('type', [
      messagesTextBlockSchema,
      messagesImageBlockSchema,
      messagesDocumentBlockSchema,
      messagesSearchResultBlockSchema,
      toolReferenceBlockSchema,
    ]),
    unknownTypeSchema(toolResultContentTypes),
  ],
  { error: 'expected a content block object with a string `type`' },
);

export const messagesToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z
    .union([z.string(), z.array(messagesToolResultContentBlockSchema)], {
      error: 'expected a string or an array of content blocks',
    })
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: messagesCacheControlSchema,
});

const toolInputSchema = z.record(z.string(), z.unknown(), { error: 'expected a JSON object' });

export const messagesToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: toolInputSchema,
  cache_control: messagesCacheControlSchema,
  caller: z.looseObject({ type: z.string() }).optional(),
});

export const messagesThinkingBlockSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});

export const messagesRedactedThinkingBlockSchema = z.looseObject({
  type: z.literal('redacted_thinking'),
  data: z.string(),
});

/** Server-tool transcript blocks: replayed verbatim, only to Anthropic. */
const serverToolUseBlockSchema = z.looseObject({
  type: z.enum(['server_tool_use', 'mcp_tool_use']),
  id: z.string(),
  name: z.string(),
  input: toolInputSchema,
  cache_control: messagesCacheControlSchema,
});

const serverToolResultBlockSchema = z.looseObject({
  type: z.enum([
    'web_search_tool_result',
    'web_fetch_tool_result',
    'code_execution_tool_result',
    'bash_code_execution_tool_result',
    'text_editor_code_execution_tool_result',
    'tool_search_tool_result',
    'mcp_tool_result',
  ]),
  tool_use_id: z.string(),
  content: z.unknown(),
  cache_control: messagesCacheControlSchema,
});

const containerUploadBlockSchema = z.looseObject({
  type: z.literal('container_upload'),
  file_id: z.string(),
  cache_control: messagesCacheControlSchema,
});

const knownBlockSchema = z.discriminatedUnion('type', [
  messagesTextBlockSchema,
  messagesImageBlockSchema,
  messagesDocumentBlockSchema,
  messagesSearchResultBlockSchema,
  messagesToolResultBlockSchema,
  messagesToolUseBlockSchema,
  messagesThinkingBlockSchema,
  messagesRedactedThinkingBlockSchema,
  serverToolUseBlockSchema,
  serverToolResultBlockSchema,
  containerUploadBlockSchema,
]);

export const messagesKnownBlockTypes: readonly string[] = [
  'text',
  'image',
  'document',
  'search_result',
  'tool_result',
  'tool_use',
  'thinking',
  'redacted_thinking',
  ...serverToolUseBlockSchema.shape.type.options,
  ...serverToolResultBlockSchema.shape.type.options,
  'container_upload',
];

/** Any block of a message's `content` array; block types this codec does not know are kept as they are. */
export const messagesContentBlockSchema = z.union([knownBlockSchema, unknownTypeSchema(messagesKnownBlockTypes)], {
  error: 'expected a content block object with a string `type`',
});

export const messagesContentSchema = z.union([z.string(), z.array(messagesContentBlockSchema)], {
  error: 'expected a string or an array of content blocks',
});

export type MessagesTextBlock = z.infer<typeof messagesTextBlockSchema>;
export type MessagesImageBlock = z.infer<typeof messagesImageBlockSchema>;
export type MessagesImageSource = z.infer<typeof messagesImageSourceSchema>;
export type MessagesDocumentBlock = z.infer<typeof messagesDocumentBlockSchema>;
export type MessagesDocumentSource = z.infer<typeof messagesDocumentSourceSchema>;
export type MessagesToolResultBlock = z.infer<typeof messagesToolResultBlockSchema>;
export type MessagesToolResultContentBlock = z.infer<typeof messagesToolResultContentBlockSchema>;
export type MessagesToolUseBlock = z.infer<typeof messagesToolUseBlockSchema>;
export type MessagesKnownContentBlock = z.infer<typeof knownBlockSchema>;
export type MessagesContentBlock = z.infer<typeof messagesContentBlockSchema>;
export type MessagesContent = z.infer<typeof messagesContentSchema>;
