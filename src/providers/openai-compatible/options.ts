import { z } from 'zod';
import { providerOptionsShape, type ProviderOptions } from '../provider-options.js';
import { openAICompatibleProfiles, type ChatQuirks, type OpenAICompatibleProfile } from './quirks.js';

/** Options of `createOpenAICompatibleProvider`. */
export interface OpenAICompatibleProviderOptions extends ProviderOptions {
  /** The server's quirks profile. Default `generic`. */
  profile?: OpenAICompatibleProfile;
  /** Including `/v1` or its equivalent; `/chat/completions` is appended. Default: the profile's (local servers: their default port). */
  baseURL?: string;
  /** The server's key, sent as `Authorization: Bearer` (`api-key` when the quirks say so). Optional for local servers. */
  apiKey?: string;
  /** Query parameters on every call. */
  query?: Record<string, string>;
  /** Provider id in logs. Default `openai-compatible:<profile>`. */
  id?: string;
  /** Overrides of the profile's quirks. */
  quirks?: Partial<ChatQuirks>;
}

const effort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);

/** Overrides of a profile's quirks (every key optional, unknown keys are errors). */
export const chatQuirksSchema = z.strictObject({
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  auth: z.enum(['bearer', 'api-key', 'none']).optional(),
  maxTokensField: z.enum(['max_completion_tokens', 'max_tokens']).optional(),
  streamUsage: z.enum(['include_usage', 'always', 'none']).optional(),
  reasoningControl: z.enum(['reasoning_effort', 'reasoning_object', 'thinking', 'none']).optional(),
  reasoningEfforts: z.array(effort).optional(),
  reasoningReplay: z.enum(['drop', 'reasoning_content', 'reasoning']).optional(),
  toolChoices: z.array(z.enum(['auto', 'none', 'required', 'named', 'allowed_tools'])).optional(),
  requiredToolChoice: z.enum(['required', 'any']).optional(),
  parallelToolCalls: z.boolean().optional(),
  toolCallIds: z.enum(['opaque', 'alnum9']).optional(),
  responseFormats: z.array(z.enum(['json_object', 'json_schema'])).optional(),
  topK: z.boolean().optional(),
  seedField: z.enum(['seed', 'random_seed', 'none']).optional(),
  userField: z.enum(['safety_identifier', 'user', 'none']).optional(),
  metadata: z.boolean().optional(),
  developerRole: z.boolean().optional(),
  textPartArrays: z.boolean().optional(),
  extensionFields: z.strictObject({ only: z.array(z.string()).optional(), except: z.array(z.string()).optional() }).optional(),
});

const profileNames = Object.keys(openAICompatibleProfiles) as [OpenAICompatibleProfile, ...OpenAICompatibleProfile[]];

/** Configuration of the built-in `openai-compatible` provider (strict: unknown keys are errors). */
export const openAICompatibleProviderOptionsSchema = z
  .strictObject({
    ...providerOptionsShape,
    profile: z.enum(profileNames).optional(),
    query: z.record(z.string(), z.string()).optional(),
    quirks: chatQuirksSchema.optional(),
  })
  .refine(
    (options) =>
      options.baseURL !== undefined ||
      options.quirks?.baseURL !== undefined ||
      openAICompatibleProfiles[options.profile ?? 'generic'].baseURL !== undefined,
    { message: 'the generic profile needs a baseURL, e.g. { baseURL: "http://localhost:8000/v1" }', path: ['baseURL'] },
  );
