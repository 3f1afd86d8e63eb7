import type { GatewayError } from './errors.js';
import type { Extensions, ProtocolName } from './extensions.js';
import type { FinishReason } from './finish-reason.js';
import type { Usage } from './usage.js';

/**
 * Streams are made of blocks. Every block has a start, any number of deltas and an end,
 * identified by `id`; blocks never interleave. `id` is unique within one stream.
 */
export type CanonicalStreamEvent =
  | { type: 'start'; id: string; model: string; usage?: Usage; extensions?: Extensions }
  | { type: 'text-start'; id: string; extensions?: Extensions }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  /** A model's refusal (Chat `delta.refusal`, a Responses `refusal` part); `extensions` as for text. */
  | { type: 'refusal-start'; id: string; extensions?: Extensions }
  | { type: 'refusal-delta'; id: string; delta: string }
  | { type: 'refusal-end'; id: string }
  | { type: 'reasoning-start'; id: string; redactedData?: string; extensions?: Extensions }
  | { type: 'reasoning-delta'; id: string; delta: string }
  /** `extensions` here carries what is known only at the end, e.g. OpenAI `encrypted_content`. */
  | { type: 'reasoning-end'; id: string; signature?: string; extensions?: Extensions }
  | { type: 'tool-call-start'; id: string; toolCallId: string; name: string; namespace?: string; extensions?: Extensions }
  | { type: 'tool-call-delta'; id: string; delta: string }
  | { type: 'tool-call-end'; id: string }
  /**
   * A block only one protocol has (Anthropic `server_tool_use`, `web_search_tool_result`, …),
   * carried verbatim for a client of that protocol: the opening block and each wire delta as sent.
   */
  | { type: 'provider-start'; id: string; protocol: ProtocolName; kind: string; data: Record<string, unknown> }
  | { type: 'provider-delta'; id: string; data: Record<string, unknown> }
  | { type: 'provider-end'; id: string }
  | { type: 'finish'; finishReason: FinishReason; usage: Usage; stopSequence?: string }
  | { type: 'error'; error: GatewayError };

export type CanonicalStreamEventType = CanonicalStreamEvent['type'];
