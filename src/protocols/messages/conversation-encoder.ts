import type { CanonicalMessage, CanonicalRequest } from '../../canonical/index.js';
import {
  encodeMessagesAssistantPart,
  encodeMessagesTextPart,
  encodeMessagesToolResult,
  encodeMessagesUserPart,
  messagesWireFields,
  type MessagesRequestBlock,
} from './content-encoder.js';

/** One upstream `messages` entry. */
export type MessagesRequestMessage = { role: 'user' | 'assistant'; content: MessagesRequestBlock[] } & Record<string, unknown>;

export interface EncodedMessagesConversation {
  /** Top-level `system` blocks (empty when there is no system prompt). */
  system: MessagesRequestBlock[];
  messages: MessagesRequestMessage[];
}

const isThinking = (block: MessagesRequestBlock) => block.type === 'thinking' || block.type === 'redacted_thinking';
const isToolResult = (block: MessagesRequestBlock) => block.type === 'tool_result';

/** Stable partition: blocks that pass `first` move ahead of the others, each group in its order. */
function moveFirst(blocks: MessagesRequestBlock[], first: (block: MessagesRequestBlock) => boolean): MessagesRequestBlock[] {
  // Most turns have nothing to move (no tool results, no thinking): the same array, not two copies.
  if (!blocks.some(first)) return blocks;
  return [...blocks.filter(first), ...blocks.filter((block) => !first(block))];
}

/**
 * Anthropic's ordering rules inside one turn: `tool_result` blocks open a user turn (text after
 * them); signed thinking opens an assistant turn. An assistant turn that already opens with
 * thinking came from Anthropic and keeps its order (interleaved thinking stays where it was).
 */
function orderBlocks(message: MessagesRequestMessage): MessagesRequestMessage {
  const { content } = message;
  if (content[0] !== undefined && message.role === 'assistant' && isThinking(content[0])) return message;
  const ordered = moveFirst(content, message.role === 'user' ? isToolResult : isThinking);
  return ordered === content ? message : { ...message, content: ordered };
}

function encodeBlocks(message: Exclude<CanonicalMessage, { role: 'system' }>, model: string): MessagesRequestBlock[] {
  switch (message.role) {
    case 'user':
      return message.content.flatMap((part) => encodeMessagesUserPart(part, model) ?? []);
    case 'assistant':
      return message.content.flatMap((part) => encodeMessagesAssistantPart(part, model) ?? []);
    case 'tool':
      return message.content.map((result) => encodeMessagesToolResult(result, model));
  }
}

/**
 * Canonical system prompt and conversation → Anthropic `system` and `messages`.
 *
 * - System policy: `request.system` and every in-conversation system message are hoisted, in
 *   order, into top-level `system` text blocks (`cache_control` kept). A system message after
 *   the first turn loses its position; its text is kept.
 * - Tool messages become user turns of `tool_result` blocks; consecutive same-role turns are
 *   merged (parallel results land in one user turn, and a following user text after them).
 * - Empty blocks and turns that end up empty are not sent.
 */
export function encodeMessagesConversation(request: CanonicalRequest, model: string): EncodedMessagesConversation {
  const system = (request.system ?? []).flatMap((part) => encodeMessagesTextPart(part) ?? []);
  const messages: MessagesRequestMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'system') {
      system.push(...message.content.flatMap((part) => encodeMessagesTextPart(part) ?? []));
      continue;
    }
    const blocks = encodeBlocks(message, model);
    if (blocks.length === 0) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const fields = messagesWireFields(message.extensions);
    const last = messages.at(-1);
    if (last?.role === role) {
      messages[messages.length - 1] = { ...last, ...fields, role, content: [...last.content, ...blocks] };
    } else {
      messages.push({ ...fields, role, content: blocks });
    }
  }
  return { system, messages: messages.map(orderBlocks) };
}
