import type { Extensions, ProtocolName } from './extensions.js';

/** Plain text. Anthropic `cache_control` and Responses annotations ride in `extensions`. */
export interface TextPart {
  type: 'text';
  text: string;
  extensions?: Extensions;
}

/** Where the bytes of an image or file live. */
export type MediaSource =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'file-id'; fileId: string };

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  /** OpenAI's resolution hint; other protocols have none. */
  detail?: 'auto' | 'low' | 'high' | 'original';
  extensions?: Extensions;
}

/** A document (PDF, plain text) given as input. */
export interface FilePart {
  type: 'file';
  source: MediaSource | { kind: 'text'; mediaType: string; text: string };
  filename?: string;
  extensions?: Extensions;
}

export interface AudioPart {
  type: 'audio';
  /** Base64 audio bytes. */
  data: string;
  format: string;
  extensions?: Extensions;
}

/** A model's request to run a tool. `arguments` is JSON text exactly as the model wrote it. */
export interface ToolCallPart {
  type: 'tool-call';
  /** Links the call to its result (Chat `id`, Responses `call_id`, Messages `tool_use.id`). */
  id: string;
  name: string;
  arguments: string;
  /** Codex-style namespaced tools: the namespace the function belongs to. */
  namespace?: string;
  extensions?: Extensions;
}

export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  content: ToolResultContent[];
  isError?: boolean;
  extensions?: Extensions;
}

/**
 * Model reasoning. `signature` (Anthropic thinking) and `redactedData` (Anthropic
 * redacted_thinking) are opaque and must be replayed byte-exact to the provider that made them.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  extensions?: Extensions;
}

export interface RefusalPart {
  type: 'refusal';
  text: string;
  extensions?: Extensions;
}

/**
 * Content only one protocol's providers understand (Responses hosted-tool items such as
 * `web_search_call`, Anthropic server-tool blocks such as `server_tool_use`). Carried
 * verbatim, and only to a provider that speaks `protocol`; elsewhere it is a 400.
 */
export interface ProviderDefinedPart {
  type: 'provider-defined';
  protocol: ProtocolName;
  /** The wire `type`, e.g. `web_search_call`, `web_search_tool_result`. */
  kind: string;
  data: Record<string, unknown>;
}

export type UserContentPart = TextPart | ImagePart | FilePart | AudioPart | ProviderDefinedPart;
/** What a tool can return; `provider-defined` holds e.g. Anthropic `tool_reference` and `search_result` blocks. */
export type ToolResultContent = TextPart | ImagePart | FilePart | ProviderDefinedPart;
export type AssistantContentPart = TextPart | ReasoningPart | ToolCallPart | RefusalPart | ProviderDefinedPart;

/** A system or developer instruction that appears inside the conversation. */
export interface SystemMessage {
  role: 'system';
  content: TextPart[];
  extensions?: Extensions;
}

export interface UserMessage {
  role: 'user';
  content: UserContentPart[];
  extensions?: Extensions;
}

export interface AssistantMessage {
  role: 'assistant';
  content: AssistantContentPart[];
  extensions?: Extensions;
}

/** Results of one or more tool calls, in the order they were given. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
  extensions?: Extensions;
}

export type CanonicalMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;
