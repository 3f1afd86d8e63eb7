import { z } from 'zod';

const azureSchema = z
  .strictObject({
    resource: z.string().regex(/^[a-zA-Z0-9-]+$/, 'expected the resource name, e.g. "my-resource"').optional(),
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    apiVersion: z.string().regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, 'expected a version like "2024-10-21"').optional(),
    deployments: z.record(z.string(), z.string().min(1)).optional(),
  })
  .refine((azure) => (azure.resource === undefined) !== (azure.endpoint === undefined), {
    message: 'give exactly one of resource or endpoint, e.g. azure: { resource: "my-resource" }',
  });

/** Configuration of the built-in `openai` provider (strict: unknown keys are errors). */
export const openAIProviderOptionsSchema = z
  .strictObject({
    id: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    organization: z.string().min(1).optional(),
    project: z.string().min(1).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxConnections: z.number().int().positive().optional(),
    azure: azureSchema.optional(),
  })
  .refine((options) => options.azure === undefined || options.baseURL === undefined, {
    message: 'give either baseURL or azure, not both (azure builds its own URL)',
  });
