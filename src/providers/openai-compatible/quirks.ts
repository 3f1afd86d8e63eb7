import { openAIChatDialect, type ChatDialect } from '../../protocols/chat-completions/index.js';

/**
 * How one OpenAI-compatible server deviates from OpenAI: the Chat dialect it speaks (request
 * fields, reasoning, tools, structured output) plus transport (default base URL, auth header).
 * Answers need no record: they are decoded leniently for every server (reasoning in
 * `reasoning_content` or `reasoning`, usage wherever it is, error bodies of every shape).
 */
export interface ChatQuirks extends ChatDialect {
  /** Used when the provider options give no `baseURL`. */
  baseURL?: string;
  /** `none`: no key needed (a key given anyway is sent as Bearer). */
  auth: 'bearer' | 'api-key' | 'none';
}

/** Profile names of `openAICompatibleProfiles`. */
export type OpenAICompatibleProfile =
  | 'generic'
  | 'vllm'
  | 'ollama'
  | 'llama.cpp'
  | 'lm-studio'
  | 'together'
  | 'groq'
  | 'deepseek'
  | 'openrouter'
  | 'mistral';

/** What most OpenAI-compatible servers accept: `max_tokens`, string content, no `developer` role. */
const generic: ChatQuirks = {
  ...openAIChatDialect,
  auth: 'bearer',
  maxTokensField: 'max_tokens',
  reasoningEfforts: ['low', 'medium', 'high'],
  toolChoices: ['auto', 'none', 'required', 'named'],
  topK: true,
  userField: 'user',
  metadata: false,
  developerRole: false,
  textPartArrays: false,
};

/**
 * The profile table of `openai-compatible.md` as records. A profile is a starting point:
 * `quirks` in the provider options override any key (e.g. a vLLM build that wants
 * `max_completion_tokens`).
 */
export const openAICompatibleProfiles: Readonly<Record<OpenAICompatibleProfile, ChatQuirks>> = {
  generic,
  vllm: { ...generic, baseURL: 'http://localhost:8000/v1', reasoningEfforts: ['low', 'medium', 'high'] },
  ollama: {
    ...generic,
    baseURL: 'http://localhost:11434/v1',
    auth: 'none',
    reasoningEfforts: ['none', 'low', 'medium', 'high'],
    // Assistant `reasoning` is accepted and fed to the chat template.
    reasoningReplay: 'reasoning',
    // `tool_choice` is ignored: only `auto` (and `none`, by leaving the tools out) can be honoured.
    toolChoices: ['auto'],
    parallelToolCalls: false,
    topK: false,
    userField: 'none',
    // Fields of Ollama's request struct without a canonical home.
    extensionFields: { only: ['logprobs', 'top_logprobs', 'reasoning'] },
  },
  'llama.cpp': {
    ...generic,
    baseURL: 'http://localhost:8080/v1',
    auth: 'bearer',
    reasoningEfforts: ['none', 'low', 'medium', 'high'],
    toolChoices: ['auto', 'none', 'required'],
  },
  'lm-studio': {
    ...generic,
    baseURL: 'http://localhost:1234/v1',
    auth: 'none',
    reasoningControl: 'none',
    toolChoices: ['auto', 'none', 'required'],
    // `json_object` is a 400 there; JSON mode becomes a permissive `json_schema`.
    responseFormats: ['json_schema'],
  },
  together: { ...generic, baseURL: 'https://api.together.xyz/v1' },
  groq: {
    ...generic,
    baseURL: 'https://api.groq.com/openai/v1',
    maxTokensField: 'max_completion_tokens',
    reasoningEfforts: ['none', 'low', 'medium', 'high'],
    topK: false,
    // Groq 400s on these OpenAI fields.
    extensionFields: { except: ['logit_bias', 'logprobs', 'top_logprobs', 'n'] },
  },
  deepseek: {
    ...generic,
    baseURL: 'https://api.deepseek.com',
    reasoningControl: 'thinking',
    reasoningEfforts: ['low', 'high', 'max'],
    // Thinking mode with tools needs each assistant turn's reasoning back.
    reasoningReplay: 'reasoning_content',
    responseFormats: ['json_object'],
    topK: false,
    userField: 'none',
  },
  openrouter: {
    ...generic,
    baseURL: 'https://openrouter.ai/api/v1',
    reasoningControl: 'reasoning_object',
    reasoningEfforts: ['minimal', 'low', 'medium', 'high'],
  },
  mistral: {
    ...generic,
    baseURL: 'https://api.mistral.ai/v1',
    streamUsage: 'always',
    reasoningEfforts: ['none', 'high'],
    requiredToolChoice: 'any',
    toolCallIds: 'alnum9',
    topK: false,
    seedField: 'random_seed',
    userField: 'none',
    // Mistral validates strictly (422 `extra_forbidden`).
    extensionFields: { only: ['safe_prompt', 'prompt_mode', 'n', 'prediction'] },
  },
};
