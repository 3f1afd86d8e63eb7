import { unsupportedFeatureError } from '../../canonical/index.js';
import type { AssistantMessage, CanonicalMessage, TextPart, ToolMessage, ToolResultContent } from '../../canonical/index.js';
import {
  encodeChatTextContent,
  encodeChatTextPart,
  encodeChatUserContent,
  encodeChatUserPart,
  type ChatWirePart,
} from './content-encoder.js';
import type { ChatDialect } from './dialect.js';
import { mergeChatFields, readChatExtensionFields, readNestedFields } from './extension-fields.js';
import { encodeChatArguments } from './response.js';
import { encodeChatToolCallId } from './tool-call-id.js';

/** A Chat message as sent upstream. */
export type ChatWireMessage = Record<string, unknown> & { role: string };

interface Scope {
  dialect: ChatDialect;
  model: string;
}

/** Fields the Chat decoder copies from a system/developer message onto each of its parts. */
const systemMessageKeys = ['role', 'name'] as const;

/** `role: developer` (as the client sent it) where the dialect has that role, else `system`. */
function systemRole(fields: Record<string, unknown>, dialect: ChatDialect): string {
  return fields.role === 'developer' && dialect.developerRole ? 'developer' : 'system';
}

function systemMessageFields(part: TextPart, dialect: ChatDialect): ChatWireMessage {
  const fields = readChatExtensionFields(part);
  return { role: systemRole(fields, dialect), ...(fields.name === undefined ? {} : { name: fields.name }) };
}

/**
 * Leading instructions → system (or `developer`, as the client sent them) messages. Consecutive
 * parts that came from one wire message (same role and name) form one message again.
 */
function encodeSystem(parts: readonly TextPart[], dialect: ChatDialect): ChatWireMessage[] {
  // The usual case, one plain instruction, without grouping.
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && only.extensions === undefined) return [{ role: 'system', content: only.text }];
  const groups: { fields: ChatWireMessage; parts: TextPart[] }[] = [];
  for (const part of parts) {
    const fields = systemMessageFields(part, dialect);
    const last = groups.at(-1);
    if (last !== undefined && JSON.stringify(last.fields) === JSON.stringify(fields)) last.parts.push(part);
    else groups.push({ fields, parts: [part] });
  }
  return groups.map(({ fields, parts: group }) => ({
    ...fields,
    content: encodeChatTextContent(group, dialect, systemMessageKeys),
  }));
}

function encodeToolCalls(message: AssistantMessage, scope: Scope, param: string): Record<string, unknown>[] {
  const calls: Record<string, unknown>[] = [];
  for (const part of message.content) {
    if (part.type === 'provider-defined' && part.protocol === 'chat' && part.kind === 'custom_tool_call') {
      calls.push({ ...part.data });
    } else if (part.type === 'tool-call') {
      if (part.namespace !== undefined) {
        throw unsupportedFeatureError(`namespaced tool calls ('${part.namespace}')`, scope.model, { param });
      }
      const fields = readChatExtensionFields(part);
      const fn = mergeChatFields({ name: part.name, arguments: encodeChatArguments(part.arguments) }, readNestedFields(fields, 'function'));
      calls.push(mergeChatFields({ id: encodeChatToolCallId(part.id, scope.dialect), type: 'function', function: fn }, fields));
    }
  }
  return calls;
}

/**
 * An assistant turn: text (and refusal) in `content`/`refusal`, calls in `tool_calls` with their
 * ids kept, reasoning text only where the dialect replays it — never in `content`. Signatures and
 * redacted reasoning belong to the provider that made them and are not sent. A turn left with
 * nothing to say is left out.
 */
function encodeAssistant(message: AssistantMessage, scope: Scope, param: string): ChatWireMessage | undefined {
  const { dialect, model } = scope;
  const text: TextPart[] = [];
  const others: ChatWirePart[] = [];
  const refusals: string[] = [];
  let reasoning = '';
  message.content.forEach((part, index) => {
    if (part.type === 'text') text.push(part);
    else if (part.type === 'refusal') refusals.push(part.text);
    else if (part.type === 'reasoning' && part.redactedData === undefined) reasoning += part.text;
    else if (part.type === 'provider-defined' && part.kind !== 'custom_tool_call') {
      if (part.protocol !== 'chat') {
        throw unsupportedFeatureError(`'${part.kind}' content (${part.protocol} only)`, model, { param: `${param}.content[${index}]` });
      }
      others.push({ ...part.data, type: part.kind });
    }
  });
  const calls = encodeToolCalls(message, scope, param);
  const content: string | ChatWirePart[] | null =
    others.length > 0
      ? [...text.map((part) => encodeChatTextPart(part)), ...others]
      : text.length === 0
        ? null
        : encodeChatTextContent(text, dialect);
  const replay = dialect.reasoningReplay === 'drop' || reasoning === '' ? {} : { [dialect.reasoningReplay]: reasoning };
  const fields = readChatExtensionFields(message, dialect.reasoningReplay === 'drop' ? ['reasoning_content', 'reasoning'] : []);
  if (content === null && calls.length === 0 && refusals.length === 0 && Object.keys(replay).length === 0) return undefined;
  return mergeChatFields(
    {
      role: 'assistant',
      content,
      ...(refusals.length === 0 ? {} : { refusal: refusals.join('') }),
      ...(calls.length === 0 ? {} : { tool_calls: calls }),
      ...replay,
    },
    fields,
  );
}

function resultText(content: readonly ToolResultContent[], isError: boolean | undefined): TextPart[] {
  const text = content.filter((part): part is TextPart => part.type === 'text');
  if (isError !== true) return text;
  const [first, ...rest] = text;
  return [first === undefined ? { type: 'text', text: 'Error' } : { ...first, text: `Error: ${first.text}` }, ...rest];
}

/**
 * Tool results: one `tool` message per result, in order, ids kept. Chat tool messages carry text
 * only, so images and files a tool returned follow in one user message, each labelled with its call id.
 */
function encodeToolResults(message: ToolMessage, scope: Scope, param: string): ChatWireMessage[] {
  const wire: ChatWireMessage[] = [];
  const attachments: ChatWirePart[] = [];
  message.content.forEach((result, index) => {
    const id = encodeChatToolCallId(result.toolCallId, scope.dialect);
    const legacy = result.extensions?.chat?.role === 'function';
    const fields = readChatExtensionFields(result, legacy ? ['role', 'name'] : []);
    wire.push(
      mergeChatFields(
        { role: 'tool', tool_call_id: id, content: encodeChatTextContent(resultText(result.content, result.isError), scope.dialect) },
        fields,
      ),
    );
    const media = result.content.filter((part) => part.type !== 'text');
    if (media.length === 0) return;
    attachments.push({ type: 'text', text: `Attachments returned by tool call ${id}:` });
    media.forEach((part, at) =>
      attachments.push(encodeChatUserPart(part, { model: scope.model, param: `${param}.content[${index}].content[${at}]` })),
    );
  });
  if (attachments.length > 0) wire.push({ role: 'user', content: attachments });
  return wire;
}

/**
 * The canonical conversation → Chat `messages`: leading instructions first, then each message in
 * order. Extension fields a Chat client sent (names, unknown keys) go back where they came from.
 */
export function encodeChatMessages(
  system: readonly TextPart[] | undefined,
  messages: readonly CanonicalMessage[],
  scope: Scope,
): ChatWireMessage[] {
  const wire: ChatWireMessage[] = encodeSystem(system ?? [], scope.dialect);
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    switch (message.role) {
      case 'system': {
        const fields = readChatExtensionFields(message);
        const content = encodeChatTextContent(message.content, scope.dialect);
        wire.push(mergeChatFields({ role: systemRole(fields, scope.dialect), content }, fields));
        return;
      }
      case 'user':
        wire.push(
          mergeChatFields(
            {
              role: 'user',
              content: encodeChatUserContent(message.content, scope.dialect, { model: scope.model, param: `${param}.content` }),
            },
            readChatExtensionFields(message),
          ),
        );
        return;
      case 'assistant': {
        const assistant = encodeAssistant(message, scope, param);
        if (assistant !== undefined) wire.push(assistant);
        return;
      }
      case 'tool':
        wire.push(...encodeToolResults(message, scope, param));
        return;
    }
  });
  return wire;
}
