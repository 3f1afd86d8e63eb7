import type { ReasoningEffort } from '../../canonical/index.js';

/** A `tool_choice` form an upstream may or may not honour. */
export type ChatToolChoiceForm = 'auto' | 'none' | 'required' | 'named' | 'allowed_tools';

/**
 * The variations of the Chat Completions wire an upstream speaks: what `encodeChatRequest` may
 * put in the body. OpenAI's own API is `openAIChatDialect`; OpenAI-compatible servers (vLLM,
 * Ollama, Groq, …) are described by records of the same shape. Answers are decoded leniently
 * whatever the dialect, so only the request direction needs one.
 */
export interface ChatDialect {
  /** Which field carries the output cap. OpenAI: `max_completion_tokens`; most servers: `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /**
   * How a stream reports usage: `include_usage` = ask with `stream_options: {include_usage: true}`;
   * `always` = it comes anyway and `stream_options` is rejected; `none` = never.
   */
  streamUsage: 'include_usage' | 'always' | 'none';
  /**
   * How reasoning is requested: `reasoning_effort` (OpenAI), `reasoning_object` (OpenRouter
   * `reasoning: {effort | max_tokens}`), `thinking` (DeepSeek `thinking: {type}` + `reasoning_effort`),
   * `none` (cannot be requested per call: asking for it is a 400).
   */
  reasoningControl: 'reasoning_effort' | 'reasoning_object' | 'thinking' | 'none';
  /** The `reasoning_effort` values accepted; others are moved to the nearest accepted one. */
  reasoningEfforts: readonly ReasoningEffort[];
  /** Where earlier assistant reasoning text is sent back; `drop` leaves it out (never into `content`). */
  reasoningReplay: 'drop' | 'reasoning_content' | 'reasoning';
  /** `tool_choice` forms honoured. `none` unsupported → tools are left out instead; others → 400. */
  toolChoices: readonly ChatToolChoiceForm[];
  /** The word for "must call a tool" (Mistral says `any`). */
  requiredToolChoice: 'required' | 'any';
  /** Whether `parallel_tool_calls` is accepted; when not, `false` is a 400. */
  parallelToolCalls: boolean;
  /** Ids the server accepts in history: `opaque` = any (kept verbatim); `alnum9` = Mistral's `^[a-zA-Z0-9]{9}$`. */
  toolCallIds: 'opaque' | 'alnum9';
  /** Structured-output forms; `json_object` missing → a permissive `json_schema`; `json_schema` missing → 400. */
  responseFormats: readonly ('json_object' | 'json_schema')[];
  /** Whether `top_k` is accepted; when not, a `topK` is a 400. */
  topK: boolean;
  /** The seed field (Mistral: `random_seed`); `none` → a seed is a 400. */
  seedField: 'seed' | 'random_seed' | 'none';
  /** Where the end-user id goes; `none` leaves it out (it is a hint). */
  userField: 'safety_identifier' | 'user' | 'none';
  /** Whether `metadata` string pairs are accepted; when not they are left out (a hint). */
  metadata: boolean;
  /** Whether the `developer` role exists; when not, developer instructions are sent as `system`. */
  developerRole: boolean;
  /** Whether text-only content may be an array of text parts; when not, text parts are joined with "\n". */
  textPartArrays: boolean;
  /**
   * Same-protocol passthrough: which `extensions.chat` top-level fields go on the body. `only` is
   * an allow-list (strict servers), `except` a deny-list. A field left out is dropped when it is a
   * hint and refused with a 400 otherwise.
   */
  extensionFields: { only?: readonly string[]; except?: readonly string[] };
}

/** OpenAI's own Chat Completions API (`https://api.openai.com/v1/chat/completions`). */
export const openAIChatDialect: ChatDialect = {
  maxTokensField: 'max_completion_tokens',
  streamUsage: 'include_usage',
  reasoningControl: 'reasoning_effort',
  reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
  reasoningReplay: 'drop',
  toolChoices: ['auto', 'none', 'required', 'named', 'allowed_tools'],
  requiredToolChoice: 'required',
  parallelToolCalls: true,
  toolCallIds: 'opaque',
  responseFormats: ['json_object', 'json_schema'],
  topK: false,
  seedField: 'seed',
  userField: 'safety_identifier',
  metadata: true,
  developerRole: true,
  textPartArrays: true,
  extensionFields: {},
};

/** What `encodeChatRequest` needs besides the request. */
export interface ChatEncodeOptions {
  dialect: ChatDialect;
  /**
   * Top-level `extensions.chat` fields that are hints only (`chatCodec.hintFields`): dropped
   * rather than refused when the dialect does not take them.
   */
  hintFields: ReadonlySet<string>;
}
