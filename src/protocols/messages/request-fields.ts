import type { ApiFields } from '../../canonical/index.js';

/**
 * Every top-level field of a Messages request body: those of Anthropic's API and its beta
 * (`@anthropic-ai/sdk` `MessageCreateParamsBase`, both; not `betas`, which the SDK sends as the
 * `anthropic-beta` header), plus the sampling fields `temperature`, `top_p` and `top_k` the decoder
 * reads. A field outside this list is not a Messages field: refused with a suggestion where it
 * cannot be passed through (`unknownFieldError`).
 */
export const messagesRequestFields = [
  'billing_policy',
  'cache_control',
  'compaction',
  'container',
  'context_management',
  'diagnostics',
  'fallback_credit_token',
  'fallbacks',
  'inference_geo',
  'max_tokens',
  'mcp_servers',
  'messages',
  'metadata',
  'model',
  'output_config',
  'output_format',
  'service_tier',
  'speed',
  'stop_sequences',
  'stream',
  'system',
  'temperature',
  'thinking',
  'thread',
  'tool_choice',
  'tools',
  'top_k',
  'top_p',
  'user_profile_id',
  'workspace_id',
] as const;

/**
 * Fields of the Chat Completions and Responses APIs that callers send to Messages by habit, and
 * how Messages says the same (`ApiFields.counterparts`).
 */
const counterparts: ReadonlyMap<string, string> = new Map([
  ['stop', "it calls this 'stop_sequences'"],
  ['max_completion_tokens', "it calls this 'max_tokens'"],
  ['max_output_tokens', "it calls this 'max_tokens'"],
  ['instructions', "it takes the system prompt as 'system'"],
  ['input', "it takes the conversation as 'messages'"],
  ['response_format', "it sets the output format with 'output_config.format'"],
  ['reasoning_effort', "it asks for reasoning with 'thinking' (and 'output_config.effort')"],
  ['reasoning', "it asks for reasoning with 'thinking'"],
  ['user', "it takes the end user as 'metadata.user_id'"],
]);

/** The Messages API's top-level fields, known and foreign, for `unknownFieldError` (`InboundCodec.fields`). */
export const messagesFields: ApiFields = { protocol: 'messages', known: new Set(messagesRequestFields), counterparts };
