import { z } from 'zod';
import { providerOptionsShape, type ProviderOptions } from '../provider-options.js';
import type { AzureOpenAIOptions } from './azure.js';

/** Options of `createOpenAIProvider`. */
export interface OpenAIProviderOptions extends ProviderOptions {
  /** The provider's key. Default: `OPENAI_API_KEY` (with `azure`: `AZURE_OPENAI_API_KEY`). */
  apiKey?: string;
  /** Default `https://api.openai.com/v1`. Not with `azure`. */
  baseURL?: string;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Sent as `OpenAI-Project`. */
  project?: string;
  /** Provider id in logs. Default `openai`, or `azure-openai` with `azure`. */
  id?: string;
  /** Call Azure OpenAI instead of OpenAI. */
  azure?: AzureOpenAIOptions;
}

const azureSchema = z
  .strictObject({
    resource: z
      .string()
      .regex(/^[a-zA-Z0-9-]+$/, 'expected the resource name, e.g. "my-resource"')
      .optional(),
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    apiVersion: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, 'expected a version like "2024-10-21"')
      .optional(),
    deployments: z.record(z.string(), z.string().min(1)).optional(),
  })
  .refine((azure) => (azure.resource === undefined) !== (azure.endpoint === undefined), {
    message: 'give exactly one of resource or endpoint, e.g. azure: { resource: "my-resource" }',
  });

/** Configuration of the built-in `openai` provider (strict: unknown keys are errors). */
export const openAIProviderOptionsSchema = z
  .strictObject({
    ...providerOptionsShape,
    organization: z.string().min(1).optional(),
    project: z.string().min(1).optional(),
    azure: azureSchema.optional(),
  })
  .refine((options) => options.azure === undefined || options.baseURL === undefined, {
    message: 'give either baseURL or azure, not both (azure builds its own URL)',
  });
