import { z } from 'zod';

/*
 * What Chat Completions upstreams answer (OpenAI and OpenAI-compatible servers), parsed leniently:
 * every object is loose, nearly every field optional and nullable, and values of an unexpected
 * type are read as absent (`.catch`) — an odd field never fails an answer.
 */

const optionalString = z.string().nullish().catch(undefined);
const optionalNumber = z.number().nullish().catch(undefined);

export const chatUpstreamUsageSchema = z.looseObject({
  prompt_tokens: optionalNumber,
  completion_tokens: optionalNumber,
  total_tokens: optionalNumber,
  prompt_tokens_details: z.looseObject({ cached_tokens: optionalNumber, cache_write_tokens: optionalNumber }).nullish().catch(undefined),
  completion_tokens_details: z.looseObject({ reasoning_tokens: optionalNumber }).nullish().catch(undefined),
  // DeepSeek
  prompt_cache_hit_tokens: optionalNumber,
});

/** A tool call, whole (`message.tool_calls`) or a fragment (`delta.tool_calls`). `arguments` may be an object (llama.cpp). */
export const chatUpstreamToolCallSchema = z.looseObject({
  index: optionalNumber,
  id: optionalString,
  type: optionalString,
  function: z
    .looseObject({
      name: optionalString,
      arguments: z
        .union([z.string(), z.record(z.string(), z.unknown())])
        .nullish()
        .catch(undefined),
    })
    .nullish()
    .catch(undefined),
  custom: z.looseObject({ name: optionalString, input: optionalString }).nullish().catch(undefined),
});

/** Mistral (Magistral) content arrays: text parts and thinking parts holding text parts. */
export const chatUpstreamContentPartSchema = z.looseObject({
  type: z.string().catch('unknown'),
  text: optionalString,
  thinking: z
    .union([z.string(), z.array(z.looseObject({ type: optionalString, text: optionalString }))])
    .nullish()
    .catch(undefined),
});

const thinkingBlockSchema = z.looseObject({
  type: optionalString,
  thinking: optionalString,
  signature: optionalString,
  data: optionalString,
});

/** `message` (non-streamed) and `delta` (streamed) share these fields. */
const messageFields = {
  role: optionalString,
  content: z
    .union([z.string(), z.array(chatUpstreamContentPartSchema)])
    .nullish()
    .catch(undefined),
  refusal: optionalString,
  reasoning_content: optionalString,
  reasoning: optionalString,
  thinking_blocks: z.array(thinkingBlockSchema).nullish().catch(undefined),
  tool_calls: z.array(chatUpstreamToolCallSchema).nullish().catch(undefined),
  function_call: z.looseObject({ name: optionalString, arguments: optionalString }).nullish().catch(undefined),
  annotations: z.array(z.unknown()).nullish().catch(undefined),
};

export const chatUpstreamMessageSchema = z.looseObject(messageFields);

export const chatUpstreamErrorFieldSchema = z.unknown().optional();

export const chatUpstreamResponseSchema = z.looseObject({
  id: optionalString,
  model: optionalString,
  choices: z
    .array(
      z.looseObject({
        index: optionalNumber,
        message: chatUpstreamMessageSchema.nullish().catch(undefined),
        finish_reason: optionalString,
        logprobs: z.unknown().optional(),
      }),
    )
    .nullish()
    .catch(undefined),
  usage: chatUpstreamUsageSchema.nullish().catch(undefined),
  x_groq: z
    .looseObject({ usage: chatUpstreamUsageSchema.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
  service_tier: optionalString,
  system_fingerprint: optionalString,
  error: chatUpstreamErrorFieldSchema,
});

export const chatUpstreamChunkSchema = z.looseObject({
  id: optionalString,
  model: optionalString,
  choices: z
    .array(
      z.looseObject({
        index: optionalNumber,
        delta: chatUpstreamMessageSchema.nullish().catch(undefined),
        finish_reason: optionalString,
      }),
    )
    .nullish()
    .catch(undefined),
  usage: chatUpstreamUsageSchema.nullish().catch(undefined),
  x_groq: z
    .looseObject({ usage: chatUpstreamUsageSchema.nullish().catch(undefined) })
    .nullish()
    .catch(undefined),
  error: chatUpstreamErrorFieldSchema,
});

export type ChatUpstreamUsage = z.infer<typeof chatUpstreamUsageSchema>;
export type ChatUpstreamToolCall = z.infer<typeof chatUpstreamToolCallSchema>;
export type ChatUpstreamMessage = z.infer<typeof chatUpstreamMessageSchema>;
export type ChatUpstreamResponse = z.infer<typeof chatUpstreamResponseSchema>;
export type ChatUpstreamChunk = z.infer<typeof chatUpstreamChunkSchema>;
