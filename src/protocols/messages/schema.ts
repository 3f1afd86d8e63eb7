import { z } from 'zod';
import { messagesCacheControlSchema, messagesContentSchema, messagesTextBlockSchema, unknownTypeSchema } from './content-schema.js';

const displaySchema = z.enum(['summarized', 'omitted']).nullable().optional();

export const messagesThinkingSchema = z.union([
  z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('enabled'), budget_tokens: z.int().min(0), display: displaySchema }),
    z.looseObject({ type: z.literal('adaptive'), display: displaySchema }),
    z.looseObject({ type: z.literal('disabled') }),
    z.looseObject({ type: z.literal('between_tools') }),
  ]),
  unknownTypeSchema(['enabled', 'adaptive', 'disabled', 'between_tools']),
]);

const disableParallelSchema = z.boolean().optional();

export const messagesToolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: disableParallelSchema }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: disableParallelSchema }),
  z.looseObject({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: disableParallelSchema }),
  z.looseObject({ type: z.literal('none') }),
]);

/** A tool the caller runs itself: no `type`, or `type: "custom"`. */
export const messagesCustomToolSchema = z.looseObject({
  type: z.literal('custom').nullable().optional(),
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  strict: z.boolean().optional(),
  cache_control: messagesCacheControlSchema,
  defer_loading: z.boolean().optional(),
  eager_input_streaming: z.boolean().nullable().optional(),
  input_examples: z.array(z.record(z.string(), z.unknown())).optional(),
  allowed_callers: z.array(z.string()).optional(),
});

/** A versioned Anthropic tool (`web_search_20250305`, `bash_20250124`, …), kept verbatim. */
export const messagesServerToolSchema = z.looseObject({
  type: z.string().refine((type) => type !== 'custom', { abort: true, message: 'expected a server tool type' }),
  name: z.string(),
  cache_control: messagesCacheControlSchema,
});

export const messagesToolSchema = z.union([messagesCustomToolSchema, messagesServerToolSchema], {
  error: 'expected a tool object',
});

export const messagesOutputConfigSchema = z.looseObject({
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullable().optional(),
  format: z
    .looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })
    .nullable()
    .optional(),
});

const textBlocksSchema = z.union([z.string(), z.array(messagesTextBlockSchema)], {
  error: 'expected a string or an array of text blocks',
});

export const messagesMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('user'), content: messagesContentSchema }),
  z.looseObject({ role: z.literal('assistant'), content: messagesContentSchema }),
  z.looseObject({ role: z.literal('system'), content: textBlocksSchema }),
]);

/** `POST /v1/messages` body. Unknown fields are kept (loose objects). */
export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.int().min(0),
  messages: z.array(messagesMessageSchema),
  system: textBlocksSchema.optional(),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().optional(),
  top_p: z.number().optional(),
  top_k: z.int().optional(),
  tools: z.array(messagesToolSchema).optional(),
  tool_choice: messagesToolChoiceSchema.optional(),
  thinking: messagesThinkingSchema.optional(),
  output_config: messagesOutputConfigSchema.optional(),
  metadata: z.looseObject({ user_id: z.string().nullable().optional() }).optional(),
  cache_control: messagesCacheControlSchema,
  service_tier: z.string().optional(),
  container: z
    .union([z.string(), z.looseObject({ id: z.string().nullable().optional(), skills: z.array(z.unknown()).nullable().optional() })])
    .nullable()
    .optional(),
  context_management: z
    .looseObject({ edits: z.array(z.looseObject({ type: z.string() })).optional() })
    .nullable()
    .optional(),
  diagnostics: z.looseObject({ previous_message_id: z.string().nullable().optional() }).nullable().optional(),
  inference_geo: z.string().nullable().optional(),
  speed: z.string().nullable().optional(),
  mcp_servers: z.array(z.looseObject({ type: z.string(), name: z.string() })).optional(),
  user_profile_id: z.string().optional(),
  workspace_id: z.string().optional(),
});

export type MessagesThinking = z.infer<typeof messagesThinkingSchema>;
export type MessagesToolChoice = z.infer<typeof messagesToolChoiceSchema>;
export type MessagesCustomTool = z.infer<typeof messagesCustomToolSchema>;
export type MessagesTool = z.infer<typeof messagesToolSchema>;
export type MessagesOutputConfig = z.infer<typeof messagesOutputConfigSchema>;
export type MessagesMessage = z.infer<typeof messagesMessageSchema>;
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
