import { z } from 'zod';
import { chatMessageSchema, chatOtherTypeSchema, chatTextContentSchema } from './message-schema.js';

/*
 * The Chat Completions request body after openai@7 `ChatCompletionCreateParamsBase`. Objects are
 * loose (unknown keys go to `extensions.chat`); only types and required fields are validated, open
 * string sets stay strings; optional fields accept `null` as the SDK types do.
 */

/** Tool `type`s this schema knows; any other `type` is carried verbatim. */
const knownToolTypes: ReadonlySet<string> = new Set(['function', 'custom']);

export const chatFunctionDefinitionSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

export const chatFunctionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: chatFunctionDefinitionSchema,
});

export const chatCustomToolSchema = z.looseObject({
  type: z.literal('custom'),
  custom: z.looseObject({
    name: z.string(),
    description: z.string().nullish(),
    format: z.looseObject({ type: z.string() }).nullish(),
  }),
});

export const chatKnownToolSchema = z.discriminatedUnion('type', [chatFunctionToolSchema, chatCustomToolSchema], {
  error: 'expected a tool type: function or custom',
});
export const chatOtherToolSchema = chatOtherTypeSchema(knownToolTypes);
export const chatToolSchema = z.union([chatKnownToolSchema, chatOtherToolSchema]);

const namedSchema = z.looseObject({ name: z.string() });

export const chatToolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.discriminatedUnion('type', [
      z.looseObject({ type: z.literal('function'), function: namedSchema }),
      z.looseObject({ type: z.literal('custom'), custom: namedSchema }),
      z.looseObject({
        type: z.literal('allowed_tools'),
        allowed_tools: z.looseObject({
          mode: z.enum(['auto', 'required']),
          tools: z.array(z.looseObject({ type: z.string() })),
        }),
      }),
    ]),
  ],
  { error: 'expected "none", "auto", "required" or a tool choice object' },
);

export const chatResponseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      json_schema: z.looseObject({
        name: z.string(),
        description: z.string().nullish(),
        schema: z.record(z.string(), z.unknown()).nullish(),
        strict: z.boolean().nullish(),
      }),
    }),
  ],
  { error: 'expected a response format type: text, json_object or json_schema' },
);

export const chatReasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

const integer = z.number().int();
const streamOptionsSchema = z.looseObject({
  include_usage: z.boolean().nullish(),
  include_obfuscation: z.boolean().nullish(),
});

export const chatRequestSchema = z.looseObject(
  {
    model: z.string(),
    messages: z.array(chatMessageSchema),
    stream: z.boolean().nullish(),
    stream_options: streamOptionsSchema.nullish(),
    max_completion_tokens: integer.nullish(),
    max_tokens: integer.nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    n: integer.nullish(),
    stop: z.union([z.string(), z.array(z.string())], { error: 'expected a string or an array of strings' }).nullish(),
    presence_penalty: z.number().nullish(),
    frequency_penalty: z.number().nullish(),
    seed: integer.nullish(),
    logit_bias: z.record(z.string(), z.number()).nullish(),
    logprobs: z.boolean().nullish(),
    top_logprobs: integer.nullish(),
    tools: z.array(chatToolSchema).nullish(),
    tool_choice: chatToolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    functions: z.array(chatFunctionDefinitionSchema).nullish(),
    function_call: z.union([z.enum(['none', 'auto']), namedSchema], { error: 'expected "none", "auto" or {"name": …}' }).nullish(),
    response_format: chatResponseFormatSchema.nullish(),
    reasoning_effort: chatReasoningEffortSchema.nullish(),
    verbosity: z.string().nullish(),
    metadata: z.record(z.string(), z.string()).nullish(),
    store: z.boolean().nullish(),
    user: z.string().nullish(),
    safety_identifier: z.string().nullish(),
    prompt_cache_key: z.string().nullish(),
    prompt_cache_retention: z.string().nullish(),
    prompt_cache_options: z.looseObject({ mode: z.string().nullish(), ttl: z.string().nullish() }).nullish(),
    service_tier: z.string().nullish(),
    modalities: z.array(z.string()).nullish(),
    audio: z.looseObject({ format: z.string(), voice: z.union([z.string(), z.looseObject({ id: z.string() })]) }).nullish(),
    prediction: z.looseObject({ type: z.string(), content: chatTextContentSchema }).nullish(),
    web_search_options: z.looseObject({}).nullish(),
    moderation: z.looseObject({ model: z.string() }).nullish(),
    // Common non-standard fields (LiteLLM `thinking`, OpenRouter `reasoning`, vLLM `top_k`).
    top_k: integer.nullish(),
    thinking: z
      .looseObject({
        type: z.enum(['enabled', 'disabled', 'adaptive']),
        budget_tokens: integer.nullish(),
        display: z.enum(['summarized', 'omitted']).nullish(),
      })
      .nullish(),
    reasoning: z
      .looseObject({
        effort: chatReasoningEffortSchema.nullish(),
        max_tokens: integer.nullish(),
        enabled: z.boolean().nullish(),
      })
      .nullish(),
  },
  { error: 'expected a JSON object' },
);

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type ChatTool = z.infer<typeof chatToolSchema>;
export type ChatKnownTool = z.infer<typeof chatKnownToolSchema>;
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;
export type ChatResponseFormat = z.infer<typeof chatResponseFormatSchema>;

/** True for a `function` or `custom` tool (not carried verbatim). */
export function isChatKnownTool(tool: ChatTool): tool is ChatKnownTool {
  return knownToolTypes.has(tool.type);
}
