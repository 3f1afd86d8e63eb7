import type { ApiFields } from '../../canonical/index.js';

/**
 * Every top-level field of a Chat Completions request: those of OpenAI's API (openai@7
 * `ChatCompletionCreateParamsBase`), plus the common non-standard `top_k`, `thinking` (LiteLLM)
 * and `reasoning` (OpenRouter) the decoder reads. A field outside this list is not a Chat field
 * (a typo, or another API's): refused with a suggestion where it cannot be passed through
 * (`unknownFieldError`).
 */
export const chatRequestFields = [
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'messages',
  'metadata',
  'modalities',
  'model',
  'moderation',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'reasoning',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'thinking',
  'tool_choice',
  'tools',
  'top_k',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
] as const;

/**
 * Fields of the Responses and Messages APIs that callers send to Chat Completions by habit, and
 * how Chat says the same (`ApiFields.counterparts`).
 */
const counterparts: ReadonlyMap<string, string> = new Map([
  ['max_output_tokens', "it calls this 'max_completion_tokens'"],
  ['instructions', "it takes the system prompt as a message with role 'system'"],
  ['system', "it takes the system prompt as a message with role 'system'"],
  ['stop_sequences', "it calls this 'stop'"],
  ['input', "it takes the conversation as 'messages'"],
  ['text', "it sets the output format with 'response_format'"],
  ['output_config', "it sets the output format with 'response_format' and the effort with 'reasoning_effort'"],
]);

/** The Chat API's top-level fields, known and foreign, for `unknownFieldError` (`InboundCodec.fields`). */
export const chatFields: ApiFields = { protocol: 'chat', known: new Set(chatRequestFields), counterparts };
