import type { ApiFields } from '../../canonical/index.js';

/**
 * Every top-level field of a Responses request: those of OpenAI's API (openai@7
 * `ResponseCreateParamsBase`), plus `client_metadata`, which Codex CLI sends. A field outside this
 * list is not a Responses field: refused with a suggestion where it cannot be passed through
 * (`unknownFieldError`).
 */
export const responsesRequestFields = [
  'access_programs',
  'background',
  'client_metadata',
  'context_management',
  'conversation',
  'image',
  'include',
  'input',
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'metadata',
  'model',
  'moderation',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'user',
] as const;

/**
 * Fields of the Chat Completions and Messages APIs that callers send to Responses by habit, and
 * how Responses says the same (`ApiFields.counterparts`).
 */
const counterparts: ReadonlyMap<string, string> = new Map([
  ['max_tokens', "it calls this 'max_output_tokens'"],
  ['max_completion_tokens', "it calls this 'max_output_tokens'"],
  ['system', "it takes the system prompt as 'instructions'"],
  ['messages', "it takes the conversation as 'input'"],
  ['stop', 'it has no stop sequences'],
  ['stop_sequences', 'it has no stop sequences'],
  ['response_format', "it sets the output format with 'text.format'"],
  ['reasoning_effort', "it calls this 'reasoning.effort'"],
  ['thinking', "it asks for reasoning with 'reasoning'"],
  ['top_k', 'it has no top_k'],
]);

/** The Responses API's top-level fields, known and foreign, for `unknownFieldError` (`InboundCodec.fields`). */
export const responsesFields: ApiFields = { protocol: 'responses', known: new Set(responsesRequestFields), counterparts };
