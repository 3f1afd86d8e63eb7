import type { AssistantContentPart, CanonicalResponse, Extensions } from '../../canonical/index.js';
import type { EncodeContext } from '../codec.js';
import { encodeMessagesFinishReason, type MessagesStopReason } from './finish-reason.js';
import { encodeMessagesMessageId } from './message-id.js';
import { encodeMessagesUsage, type MessagesUsage } from './usage.js';

export type MessagesResponseContentBlock =
  | { type: 'text'; text: string; citations?: unknown[] }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | ({ type: string } & Record<string, unknown>);

/** A non-streaming Messages answer (`Message`). */
export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesResponseContentBlock[];
  stop_reason: MessagesStopReason;
  stop_sequence: string | null;
  stop_details: unknown;
  container: unknown;
  usage: MessagesUsage;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Tool arguments (JSON text) → `tool_use.input`, which must be an object: empty or blank
 * text is `{}`, and text that is not a JSON object is kept as `{"_raw": text}`.
 */
export function encodeMessagesToolInput(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // not JSON: kept raw below
  }
  return { _raw: text };
}

function wireFields(extensions: Extensions | undefined): Record<string, unknown> {
  return extensions?.messages ?? {};
}

/** One canonical answer part → a response content block; undefined for another protocol's provider-defined part. */
export function encodeMessagesContentBlock(part: AssistantContentPart): MessagesResponseContentBlock | undefined {
  switch (part.type) {
    case 'text': {
      if (part.extensions?.messages === undefined) return { type: 'text', text: part.text };
      // `citations` only when there are some: the AI SDK (3.x) rejects `citations: null`.
      const { citations, ...extra } = wireFields(part.extensions);
      return { ...extra, type: 'text', text: part.text, ...(Array.isArray(citations) ? { citations } : {}) };
    }
    case 'refusal':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return part.redactedData !== undefined
        ? { type: 'redacted_thinking', data: part.redactedData }
        : { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'tool-call':
      return {
        ...wireFields(part.extensions),
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: encodeMessagesToolInput(part.arguments),
      };
    case 'provider-defined':
      return part.protocol === 'messages' ? { ...part.data, type: part.kind } : undefined;
  }
}

/** Canonical answer → Anthropic `Message` body. */
export function encodeMessagesResponse(response: CanonicalResponse, context: EncodeContext): MessagesResponse {
  const content: MessagesResponseContentBlock[] = [];
  for (const part of response.content) {
    const block = encodeMessagesContentBlock(part);
    if (block !== undefined) content.push(block);
  }
  const hasToolCalls = response.content.some((part) => part.type === 'tool-call');
  const stopReason = encodeMessagesFinishReason(response.finishReason, {
    hasToolCalls,
    stopSequence: response.stopSequence,
  });
  return {
    stop_details: null,
    container: null,
    ...wireFields(response.extensions),
    id: encodeMessagesMessageId(response.id, context.requestId),
    type: 'message',
    role: 'assistant',
    model: context.request.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (response.stopSequence ?? null) : null,
    usage: encodeMessagesUsage(response.usage),
  };
}
