import { z } from 'zod';

const actionSchema = z.enum(['allow', 'strip', 'refuse']);
const actionsSchema = z.record(z.string().min(1), actionSchema);

const requestPolicyFields = {
  fields: actionsSchema.optional(),
  tools: actionsSchema.optional(),
  anthropicBetas: actionsSchema.optional(),
  maxChoices: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
};

/** One layer of policy (`models[].requestPolicy`, a key's override); the config file loader checks the same shape. */
export const requestPolicySchema = z.strictObject(requestPolicyFields);

/** The gateway's `requestPolicy`: a layer plus overrides per key; the config file loader checks the same shape. */
export const requestPolicyOptionsSchema = z.strictObject({
  ...requestPolicyFields,
  keys: z.record(z.string().min(1), requestPolicySchema).optional(),
});
