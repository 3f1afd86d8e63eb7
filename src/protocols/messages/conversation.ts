import type { AssistantMessage, CanonicalMessage, SystemMessage, TextPart, ToolMessage, UserMessage } from '../../canonical/index.js';
import type { MessagesContentBlock, MessagesTextBlock, MessagesToolResultBlock } from './content-schema.js';
import { decodeMessagesAssistantBlock, decodeMessagesTextBlock, decodeMessagesToolResult, decodeMessagesUserBlock } from './content.js';
import type { MessagesMessage } from './schema.js';
import { pickUnknownFields } from '../unknown-fields.js';
import { messagesExtensions } from './extensions.js';

/** `system` as a string or text blocks → TextParts (block `cache_control` stays on each part). */
export function decodeMessagesSystem(system: string | MessagesTextBlock[]): TextPart[] {
  return typeof system === 'string' ? [{ type: 'text', text: system }] : system.map(decodeMessagesTextBlock);
}

/** Unknown block types never carry a known `type` (the schema's open union rules that out). */
function isToolResultBlock(block: MessagesContentBlock): block is MessagesToolResultBlock {
  return block.type === 'tool_result';
}

function blocksOf(content: string | MessagesContentBlock[]): MessagesContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/**
 * One wire user message → a ToolMessage with its `tool_result` blocks (first, as Anthropic
 * requires them first), then a UserMessage with the other blocks — omitted when the wire
 * message held only tool results.
 */
function decodeUserMessage(content: string | MessagesContentBlock[], extensions: ReturnType<typeof messagesExtensions>) {
  const tool: ToolMessage = { role: 'tool', content: [] };
  const user: UserMessage = { role: 'user', content: [] };
  for (const block of blocksOf(content)) {
    if (isToolResultBlock(block)) {
      tool.content.push(decodeMessagesToolResult(block));
    } else {
      user.content.push(decodeMessagesUserBlock(block));
    }
  }
  const messages: CanonicalMessage[] = [];
  if (tool.content.length > 0) messages.push(tool);
  if (user.content.length > 0 || tool.content.length === 0) messages.push(user);
  const last = messages[messages.length - 1];
  if (extensions !== undefined && last !== undefined) last.extensions = extensions;
  return messages;
}

/** Wire `messages` → canonical messages, in order. */
export function decodeMessagesConversation(messages: readonly MessagesMessage[]): CanonicalMessage[] {
  const decoded: CanonicalMessage[] = [];
  for (const message of messages) {
    const extensions = messagesExtensions(pickUnknownFields(message, ['role', 'content']));
    switch (message.role) {
      case 'system': {
        const system: SystemMessage = { role: 'system', content: decodeMessagesSystem(message.content) };
        decoded.push(extensions === undefined ? system : { ...system, extensions });
        break;
      }
      case 'assistant': {
        const assistant: AssistantMessage = {
          role: 'assistant',
          content: blocksOf(message.content).map(decodeMessagesAssistantBlock),
        };
        decoded.push(extensions === undefined ? assistant : { ...assistant, extensions });
        break;
      }
      case 'user':
        decoded.push(...decodeUserMessage(message.content, extensions));
        break;
    }
  }
  return decoded;
}
