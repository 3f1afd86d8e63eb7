import type {
  AssistantContentPart,
  AssistantMessage,
  CanonicalMessage,
  ReasoningPart,
  TextPart,
  ToolResultPart,
} from '../../canonical/index.js';
import { decodeChatOtherPart, decodeChatTextContent, decodeChatTextPart, decodeChatUserContent } from './content.js';
import { createChatFieldError } from './request-error.js';
import { isChatKnownAssistantPart, type ChatAssistantMessage, type ChatMessage, type ChatToolCall } from './message-schema.js';
import { pickUnknownFields } from '../unknown-fields.js';
import { withChatExtensions } from './extensions.js';

/** The conversation of a Chat request: leading system/developer text, then the messages. */
export interface DecodedChatMessages {
  system: TextPart[];
  messages: CanonicalMessage[];
}

/** Legacy `function_call`s waiting for their `function` result; ids are minted from their order. */
interface LegacyCalls {
  count: number;
  pending: { id: string; name: string }[];
}

interface DecodedReasoning {
  parts: ReasoningPart[];
  /** `reasoning_content` when it differs from the thinking blocks' text. */
  unknown?: Record<string, unknown>;
}

/** `thinking_blocks` (signatures kept) when present, else `reasoning_content` as one part. */
function decodeReasoning(message: ChatAssistantMessage): DecodedReasoning {
  const blocks = message.thinking_blocks ?? [];
  const text = message.reasoning_content ?? '';
  if (blocks.length === 0) return { parts: text === '' ? [] : [{ type: 'reasoning', text }] };
  const parts = blocks.map((block): ReasoningPart => {
    const unknown = pickUnknownFields(block, ['type', block.type === 'thinking' ? 'thinking' : 'data', 'signature']);
    if (block.type === 'redacted_thinking') {
      return withChatExtensions({ type: 'reasoning', text: '', redactedData: block.data }, unknown);
    }
    const signature = block.signature ?? undefined;
    return withChatExtensions({ type: 'reasoning', text: block.thinking, ...(signature === undefined ? {} : { signature }) }, unknown);
  });
  // reasoning_content normally repeats the thinking text; keep it only when it says something else.
  const joined = parts.map((part) => part.text).join('');
  return text === '' || text === joined ? { parts } : { parts, unknown: { reasoning_content: text } };
}

function decodeToolCall(call: ChatToolCall): AssistantContentPart {
  if (call.type === 'custom') {
    return { type: 'provider-defined', protocol: 'chat', kind: 'custom_tool_call', data: { ...call } };
  }
  const part = withChatExtensions(
    { type: 'tool-call', id: call.id, name: call.function.name, arguments: call.function.arguments },
    pickUnknownFields(call, ['id', 'type', 'function']),
  );
  const nested = pickUnknownFields(call.function, ['name', 'arguments']);
  return withChatExtensions(part, nested === undefined ? undefined : { function: nested });
}

function decodeAssistantMessage(message: ChatAssistantMessage, legacy: LegacyCalls): AssistantMessage {
  const reasoning = decodeReasoning(message);
  const content: AssistantContentPart[] = [...reasoning.parts];
  if (typeof message.content === 'string') {
    if (message.content !== '') content.push({ type: 'text', text: message.content });
  } else {
    for (const part of message.content ?? []) {
      if (!isChatKnownAssistantPart(part)) content.push(decodeChatOtherPart(part));
      else if (part.type === 'text') content.push(decodeChatTextPart(part));
      else {
        const unknown = pickUnknownFields(part, ['type', 'refusal']);
        content.push(withChatExtensions({ type: 'refusal', text: part.refusal }, unknown));
      }
    }
  }
  if (message.refusal !== undefined && message.refusal !== null) {
    content.push({ type: 'refusal', text: message.refusal });
  }
  for (const call of message.tool_calls ?? []) content.push(decodeToolCall(call));
  if (message.function_call !== undefined && message.function_call !== null) {
    const { name, arguments: args } = message.function_call;
    const id = `call_legacy_${legacy.count}`;
    legacy.count += 1;
    legacy.pending.push({ id, name });
    content.push({ type: 'tool-call', id, name, arguments: args, extensions: { chat: { source: 'function_call' } } });
  }
  const unknown = pickUnknownFields(message, [
    'role',
    'content',
    'refusal',
    'tool_calls',
    'function_call',
    'reasoning_content',
    'thinking_blocks',
  ]);
  return withChatExtensions({ role: 'assistant', content }, { ...unknown, ...reasoning.unknown });
}

function appendToolResult(messages: CanonicalMessage[], result: ToolResultPart): void {
  const last = messages.at(-1);
  if (last?.role === 'tool') last.content.push(result);
  else messages.push({ role: 'tool', content: [result] });
}

/**
 * Chat `messages` → canonical conversation. System/developer messages before the first other
 * message become `system`; later ones stay in place as system messages. Developer origin is
 * marked `extensions.chat.role = 'developer'`. Consecutive `tool` (and legacy `function`)
 * messages become one tool message. Legacy `function_call`s get ids `call_legacy_<n>`.
 */
export function decodeChatMessages(wire: readonly ChatMessage[]): DecodedChatMessages {
  const system: TextPart[] = [];
  const messages: CanonicalMessage[] = [];
  const legacy: LegacyCalls = { count: 0, pending: [] };
  wire.forEach((message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const unknown = {
          ...(message.role === 'developer' ? { role: 'developer' } : {}),
          ...pickUnknownFields(message, ['role', 'content']),
        };
        const content = decodeChatTextContent(message.content);
        if (messages.length === 0) system.push(...content.map((part) => withChatExtensions(part, unknown)));
        else messages.push(withChatExtensions({ role: 'system', content }, unknown));
        return;
      }
      case 'user':
        messages.push(
          withChatExtensions(
            { role: 'user', content: decodeChatUserContent(message.content, `${param}.content`) },
            pickUnknownFields(message, ['role', 'content']),
          ),
        );
        return;
      case 'assistant':
        messages.push(decodeAssistantMessage(message, legacy));
        return;
      case 'tool':
        appendToolResult(
          messages,
          withChatExtensions(
            { type: 'tool-result', toolCallId: message.tool_call_id, content: decodeChatTextContent(message.content) },
            pickUnknownFields(message, ['role', 'content', 'tool_call_id']),
          ),
        );
        return;
      case 'function': {
        const callIndex = legacy.pending.findIndex((call) => call.name === message.name);
        const call = legacy.pending[callIndex];
        if (call === undefined) {
          throw createChatFieldError(`${param}.name`, `no earlier assistant function_call named "${message.name}"`);
        }
        legacy.pending.splice(callIndex, 1);
        const content: TextPart[] = message.content === null ? [] : [{ type: 'text', text: message.content }];
        const unknown = {
          role: 'function',
          name: message.name,
          ...pickUnknownFields(message, ['role', 'name', 'content']),
        };
        appendToolResult(messages, withChatExtensions({ type: 'tool-result', toolCallId: call.id, content }, unknown));
        return;
      }
    }
  });
  return { system, messages };
}
