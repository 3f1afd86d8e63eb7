import type { Extensions } from './extensions.js';
import type { CanonicalMessage, TextPart } from './message.js';
import type { CanonicalTool, JsonSchema, ToolChoice } from './tool.js';

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface ReasoningConfig {
  /** `disabled` turns thinking off; `adaptive` lets the model decide (Anthropic). */
  mode?: 'enabled' | 'disabled' | 'adaptive';
  effort?: ReasoningEffort;
  budgetTokens?: number;
  /** Responses reasoning summaries. */
  summary?: 'auto' | 'concise' | 'detailed';
  /** Anthropic: whether thinking text is returned or only its signature. */
  display?: 'summarized' | 'omitted';
}

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json-schema'; schema: JsonSchema; name?: string; description?: string; strict?: boolean };

export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
}

export interface RequestMetadata {
  /** End-user id (Anthropic `metadata.user_id`, OpenAI `safety_identifier`/`user`). */
  userId?: string;
  /** OpenAI string pairs. */
  tags?: Record<string, string>;
}

/** One text-generation request, whatever protocol it arrived in. */
export interface CanonicalRequest {
  /** The model id the caller asked for (a gateway model id, before routing). */
  model: string;
  /** Instructions that precede the conversation. */
  system?: TextPart[];
  messages: CanonicalMessage[];
  tools?: CanonicalTool[];
  toolChoice?: ToolChoice;
  /** `false` asks for at most one tool call per turn. */
  parallelToolCalls?: boolean;
  sampling?: SamplingOptions;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  metadata?: RequestMetadata;
  stream: boolean;
  /** Chat `stream_options.include_usage`: whether the caller wants a usage chunk. */
  includeUsage?: boolean;
  /** Fields of the inbound protocol without a shared home, and unknown fields kept as sent. */
  extensions?: Extensions;
}
