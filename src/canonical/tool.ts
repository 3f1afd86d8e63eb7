import type { Extensions, ProtocolName } from './extensions.js';

/** A JSON Schema object, kept as given. */
export type JsonSchema = Record<string, unknown>;

/** A function the model may call. */
export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string;
  /** JSON Schema of the arguments; absent means "no arguments". */
  parameters?: JsonSchema;
  strict?: boolean;
  /** Codex-style namespace this function was declared in. */
  namespace?: string;
  extensions?: Extensions;
}

/**
 * A tool only one protocol's providers understand (Responses `web_search`, Chat/Responses
 * `custom` grammar tools, Anthropic server tools like `web_search_20250305`). It is carried
 * verbatim, and only to a provider that speaks `protocol`.
 */
export interface ProviderDefinedTool {
  type: 'provider-defined';
  protocol: ProtocolName;
  /** The wire `type`, e.g. `web_search`, `custom`, `bash_20250124`. */
  kind: string;
  name?: string;
  definition: Record<string, unknown>;
}

export type CanonicalTool = FunctionTool | ProviderDefinedTool;

/** `auto`/`required` may be narrowed to a subset of tools (OpenAI `allowed_tools`). */
export type ToolChoice =
  | { type: 'auto'; allowedTools?: string[] }
  | { type: 'required'; allowedTools?: string[] }
  | { type: 'none' }
  | { type: 'tool'; name: string };
