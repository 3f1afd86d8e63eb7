import { z } from 'zod';

/**
 * Zod schemas of the OpenAI Responses request (`POST /v1/responses`).
 *
 * Every object is loose: unknown keys are kept (the decoder carries them in `extensions.responses`).
 * Only the types of known fields and the required fields are checked. Input items, content parts
 * and tools are validated in two steps: the request schema checks their envelope (`type`), and
 * the decoder validates each one with the schema of its `type`, so an error names the exact field.
 */

const nullish = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** An error message that tells a missing field from a wrong one. */
const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required (expected ${what})` : `expected ${what}`;

const text = z.string({ error: expected('a string') });
const jsonObject = z.record(z.string(), z.unknown(), { error: expected('a JSON object') });

// ── Content parts ─────────────────────────────────────────────────────────────

export const ResponsesInputTextSchema = z.looseObject({ type: z.literal('input_text'), text });
export const ResponsesOutputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text,
  annotations: z.array(z.unknown()).optional(),
  logprobs: nullish(z.array(z.unknown())),
});
export const ResponsesRefusalSchema = z.looseObject({ type: z.literal('refusal'), refusal: text });
export const ResponsesInputImageSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: nullish(z.string()),
  file_id: nullish(z.string()),
  detail: nullish(z.enum(['low', 'high', 'auto', 'original'], { error: 'expected "low", "high", "auto" or "original"' })),
});
export const ResponsesInputFileSchema = z.looseObject({
  type: z.literal('input_file'),
  file_data: nullish(z.string()),
  file_id: nullish(z.string()),
  file_url: nullish(z.string()),
  filename: nullish(z.string()),
  detail: nullish(z.string()),
});
export const ResponsesInputAudioSchema = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: text, format: text }, { error: 'expected an object with data and format' }),
});
/** The envelope every content part shares; the decoder picks the part's own schema by `type`. */
export const ResponsesContentPartSchema = z.looseObject({ type: z.string({ error: 'expected a content part type' }) });

const contentParts = z.array(ResponsesContentPartSchema);
const stringOrParts = z.union([z.string(), contentParts], {
  error: expected('a string or an array of content parts'),
});

// ── Input items ───────────────────────────────────────────────────────────────

const itemStatus = nullish(z.string());

/** Easy, input and output messages (`type` may be omitted). */
export const ResponsesMessageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer'], {
    error: expected('"user", "assistant", "system" or "developer"'),
  }),
  content: stringOrParts,
  id: nullish(z.string()),
  status: itemStatus,
  phase: nullish(z.string()),
});
export const ResponsesFunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: text,
  name: text,
  arguments: text,
  id: nullish(z.string()),
  status: itemStatus,
  namespace: nullish(z.string()),
});
export const ResponsesFunctionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: text,
  output: stringOrParts,
  id: nullish(z.string()),
  status: itemStatus,
});
export const ResponsesCustomToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: text,
  name: text,
  input: text,
  id: nullish(z.string()),
  namespace: nullish(z.string()),
});
export const ResponsesCustomToolCallOutputItemSchema = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  call_id: text,
  output: stringOrParts,
  id: nullish(z.string()),
});
const reasoningText = z.looseObject({ type: z.string(), text });
export const ResponsesReasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: nullish(z.string()),
  summary: nullish(z.array(reasoningText)),
  content: nullish(z.array(reasoningText)),
  encrypted_content: nullish(z.string()),
  status: itemStatus,
});
/** Hosted-tool items, item references and any other typed item, carried verbatim. */
export const ResponsesTypedItemSchema = z.looseObject({ type: z.string() });
/** The envelope every input item shares; the decoder picks the item's own schema by `type`. */
export const ResponsesInputItemEnvelopeSchema = z.looseObject(
  { type: z.string({ error: 'expected an item type' }).optional() },
  { error: 'expected an input item object' },
);

// ── Tools ─────────────────────────────────────────────────────────────────────

export const ResponsesFunctionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: text,
  parameters: nullish(jsonObject),
  strict: nullish(z.boolean({ error: 'expected a boolean' })),
  description: nullish(z.string()),
});
export const ResponsesNamespaceToolSchema = z.looseObject({
  type: z.literal('namespace'),
  name: text,
  description: nullish(z.string()),
  tools: z.array(z.looseObject({ type: z.string() }), { error: expected('an array of tools') }),
});
export const ResponsesToolEnvelopeSchema = z.looseObject(
  { type: z.string({ error: 'expected a tool type' }) },
  { error: 'expected a tool object' },
);

export const ResponsesToolChoiceSchema = z.union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string() })], {
  error: 'expected "none", "auto", "required" or a tool choice object',
});
export const ResponsesToolChoiceFunctionSchema = z.looseObject({ type: z.literal('function'), name: text });
export const ResponsesToolChoiceAllowedSchema = z.looseObject({
  type: z.literal('allowed_tools'),
  mode: z.enum(['auto', 'required'], { error: 'expected "auto" or "required"' }),
  tools: z.array(z.looseObject({ type: z.string() }), { error: 'expected an array of tools' }),
});

// ── Request-level settings ────────────────────────────────────────────────────

export const ResponsesTextFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('text') }),
    z.looseObject({ type: z.literal('json_object') }),
    z.looseObject({
      type: z.literal('json_schema'),
      name: text,
      schema: jsonObject,
      description: nullish(z.string()),
      strict: nullish(z.boolean()),
    }),
  ],
  { error: 'expected {type:"text"}, {type:"json_object"} or {type:"json_schema", name, schema}' },
);
export const ResponsesTextConfigSchema = z.looseObject({
  format: nullish(ResponsesTextFormatSchema),
  verbosity: nullish(z.enum(['low', 'medium', 'high'], { error: 'expected "low", "medium" or "high"' })),
});

const summaryMode = z.enum(['auto', 'concise', 'detailed'], { error: 'expected "auto", "concise" or "detailed"' });
export const ResponsesReasoningSchema = z.looseObject({
  effort: nullish(
    z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'], {
      error: 'expected "none", "minimal", "low", "medium", "high", "xhigh" or "max"',
    }),
  ),
  summary: nullish(summaryMode),
  generate_summary: nullish(summaryMode),
  context: nullish(z.string()),
  mode: nullish(z.string()),
});

const count = z.number({ error: 'expected a number' }).int('expected an integer').nonnegative('expected a number >= 0');
const number = z.number({ error: 'expected a number' });
const flag = z.boolean({ error: 'expected a boolean' });

export const ResponsesRequestSchema = z.looseObject(
  {
    model: z.string({ error: expected('a model id string') }).min(1, 'expected a non-empty model id'),
    input: z
      .union([z.string(), z.array(ResponsesInputItemEnvelopeSchema)], {
        error: 'expected a string or an array of input items',
      })
      .optional(),
    instructions: nullish(z.string({ error: 'expected a string' })),
    max_output_tokens: nullish(count),
    max_tool_calls: nullish(count),
    temperature: nullish(number),
    top_p: nullish(number),
    top_logprobs: nullish(count),
    tools: nullish(z.array(ResponsesToolEnvelopeSchema, { error: 'expected an array of tools' })),
    tool_choice: nullish(ResponsesToolChoiceSchema),
    parallel_tool_calls: nullish(flag),
    text: nullish(ResponsesTextConfigSchema),
    reasoning: nullish(ResponsesReasoningSchema),
    include: nullish(z.array(z.string(), { error: 'expected an array of strings' })),
    store: nullish(flag),
    previous_response_id: nullish(z.string()),
    conversation: nullish(z.union([z.string(), z.looseObject({ id: text })], { error: 'expected a string or {id}' })),
    stream: nullish(flag),
    stream_options: nullish(z.looseObject({ include_obfuscation: nullish(flag) })),
    metadata: nullish(z.record(z.string(), z.string(), { error: 'expected an object of string values' })),
    user: nullish(z.string()),
    safety_identifier: nullish(z.string()),
    prompt_cache_key: nullish(z.string()),
    prompt_cache_retention: nullish(z.string()),
    prompt_cache_options: nullish(z.looseObject({})),
    service_tier: nullish(z.string()),
    truncation: nullish(z.enum(['auto', 'disabled'], { error: 'expected "auto" or "disabled"' })),
    background: nullish(flag),
    prompt: nullish(z.looseObject({ id: text, version: nullish(z.string()), variables: nullish(jsonObject) })),
    context_management: nullish(z.array(z.looseObject({ type: text }))),
    moderation: nullish(z.looseObject({ model: text })),
  },
  { error: 'expected a JSON object' },
);

export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;
export type ResponsesInputText = z.infer<typeof ResponsesInputTextSchema>;
export type ResponsesOutputText = z.infer<typeof ResponsesOutputTextSchema>;
export type ResponsesRefusal = z.infer<typeof ResponsesRefusalSchema>;
export type ResponsesInputImage = z.infer<typeof ResponsesInputImageSchema>;
export type ResponsesInputFile = z.infer<typeof ResponsesInputFileSchema>;
export type ResponsesInputAudio = z.infer<typeof ResponsesInputAudioSchema>;
export type ResponsesContentPart = z.infer<typeof ResponsesContentPartSchema>;
export type ResponsesMessageItem = z.infer<typeof ResponsesMessageItemSchema>;
export type ResponsesFunctionCallItem = z.infer<typeof ResponsesFunctionCallItemSchema>;
export type ResponsesFunctionCallOutputItem = z.infer<typeof ResponsesFunctionCallOutputItemSchema>;
export type ResponsesCustomToolCallItem = z.infer<typeof ResponsesCustomToolCallItemSchema>;
export type ResponsesCustomToolCallOutputItem = z.infer<typeof ResponsesCustomToolCallOutputItemSchema>;
export type ResponsesReasoningItem = z.infer<typeof ResponsesReasoningItemSchema>;
export type ResponsesTypedItem = z.infer<typeof ResponsesTypedItemSchema>;
export type ResponsesInputItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesCustomToolCallItem
  | ResponsesCustomToolCallOutputItem
  | ResponsesReasoningItem
  | ResponsesTypedItem;
export type ResponsesFunctionTool = z.infer<typeof ResponsesFunctionToolSchema>;
export type ResponsesNamespaceTool = z.infer<typeof ResponsesNamespaceToolSchema>;
export type ResponsesTool = z.infer<typeof ResponsesToolEnvelopeSchema>;
export type ResponsesToolChoice = z.infer<typeof ResponsesToolChoiceSchema>;
export type ResponsesTextConfig = z.infer<typeof ResponsesTextConfigSchema>;
export type ResponsesTextFormat = z.infer<typeof ResponsesTextFormatSchema>;
export type ResponsesReasoning = z.infer<typeof ResponsesReasoningSchema>;
