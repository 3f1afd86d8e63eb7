import { z } from 'zod';

/**
 * Lenient zod schemas of what an OpenAI Responses upstream sends back: every object is loose and
 * every field optional or nullable, so an unexpected or missing field never breaks decoding.
 */

const maybeString = z.string().nullish();
const textPart = z.looseObject({ type: z.string(), text: z.string().nullish() });

export const UpstreamMessageItemSchema = z.looseObject({
  type: z.literal('message'),
  id: maybeString,
  status: maybeString,
  phase: maybeString,
  content: z.array(z.looseObject({ type: z.string() })).nullish(),
});
export type UpstreamMessageItem = z.infer<typeof UpstreamMessageItemSchema>;
export const UpstreamOutputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string().catch(''),
  annotations: z.array(z.unknown()).nullish(),
  logprobs: z.array(z.unknown()).nullish(),
});
export type UpstreamOutputText = z.infer<typeof UpstreamOutputTextSchema>;
export const UpstreamRefusalSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string().catch('') });
export const UpstreamFunctionCallSchema = z.looseObject({
  type: z.enum(['function_call', 'custom_tool_call']),
  id: maybeString,
  call_id: z.string(),
  name: z.string(),
  arguments: maybeString,
  input: maybeString,
  namespace: maybeString,
  status: maybeString,
});
export type UpstreamFunctionCall = z.infer<typeof UpstreamFunctionCallSchema>;
export const UpstreamReasoningSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: maybeString,
  summary: z.array(textPart).nullish(),
  content: z.array(textPart).nullish(),
  encrypted_content: maybeString,
  status: maybeString,
});
export type UpstreamReasoning = z.infer<typeof UpstreamReasoningSchema>;
export const UpstreamItemSchema = z.looseObject({ type: z.string() });
export type UpstreamItem = z.infer<typeof UpstreamItemSchema>;

export const UpstreamResponseSchema = z.looseObject({
  id: maybeString,
  model: maybeString,
  status: maybeString,
  output: z.array(z.unknown()).nullish(),
  usage: z.unknown().optional(),
  error: z.unknown().optional(),
  incomplete_details: z.looseObject({ reason: maybeString }).nullish().catch(null),
});
export type UpstreamResponse = z.infer<typeof UpstreamResponseSchema>;

/** The fields stream events carry; which ones are set depends on `type`. */
export const UpstreamStreamEventSchema = z.looseObject({
  type: z.string(),
  response: UpstreamResponseSchema.nullish().catch(null),
  output_index: z.number().nullish().catch(null),
  content_index: z.number().nullish().catch(null),
  summary_index: z.number().nullish().catch(null),
  item_id: maybeString,
  item: UpstreamItemSchema.nullish().catch(null),
  part: z.looseObject({ type: z.string() }).nullish().catch(null),
  delta: maybeString,
  text: maybeString,
  refusal: maybeString,
  arguments: maybeString,
  input: maybeString,
});
export type UpstreamStreamEvent = z.infer<typeof UpstreamStreamEventSchema>;
