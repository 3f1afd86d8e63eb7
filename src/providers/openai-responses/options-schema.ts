import { z } from 'zod';

/** The configuration form of `OpenAIResponsesProviderOptions` (strict: unknown keys are errors). */
export const openAIResponsesProviderOptionsSchema = z.strictObject({
  apiKey: z.string().min(1).optional(),
  baseURL: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxConnections: z.number().int().positive().optional(),
  organization: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
});
