import { z } from 'zod';

/**
 * Lenient schemas of what an Anthropic upstream answers: every field optional, unknown fields
 * kept, so a new field or block type never breaks decoding.
 */
const count = z.number().nullish();

export const messagesUpstreamUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  output_tokens_details: z.looseObject({ thinking_tokens: count }).nullish(),
});

export const messagesUpstreamBlockSchema = z.looseObject({ type: z.string() });

export const messagesUpstreamMessageSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  content: z.array(messagesUpstreamBlockSchema).nullish(),
  stop_reason: z.string().nullish(),
  stop_sequence: z.string().nullish(),
  usage: messagesUpstreamUsageSchema.nullish(),
});

export const messagesUpstreamErrorSchema = z.looseObject({
  error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** Stream events by `type`; an unknown type fails the union and is skipped by the decoder. */
export const messagesUpstreamEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: messagesUpstreamMessageSchema }),
  z.looseObject({ type: z.literal('content_block_start'), index: z.number(), content_block: messagesUpstreamBlockSchema }),
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
    }),
  }),
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number() }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }).nullish(),
    usage: messagesUpstreamUsageSchema.nullish(),
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
  messagesUpstreamErrorSchema.extend({ type: z.literal('error') }),
]);

export type MessagesUpstreamBlock = z.infer<typeof messagesUpstreamBlockSchema>;
export type MessagesUpstreamMessage = z.infer<typeof messagesUpstreamMessageSchema>;
export type MessagesUpstreamEvent = z.infer<typeof messagesUpstreamEventSchema>;
