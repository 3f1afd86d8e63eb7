import type {
  AssistantContentPart,
  CanonicalMessage,
  ProviderDefinedPart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../canonical/index.js';
import {
  decodeResponsesAssistantContent,
  decodeResponsesSystemContent,
  decodeResponsesToolOutput,
  decodeResponsesUserContent,
} from './content.js';
import { decodeResponsesEncryptedContent } from './encrypted-content.js';
import { decodeResponsesExtensions } from './extensions.js';
import {
  ResponsesCustomToolCallItemSchema,
  ResponsesCustomToolCallOutputItemSchema,
  ResponsesFunctionCallItemSchema,
  ResponsesFunctionCallOutputItemSchema,
  ResponsesInputItemEnvelopeSchema,
  ResponsesMessageItemSchema,
  ResponsesReasoningItemSchema,
  ResponsesTypedItemSchema,
} from './schema.js';
import { createResponsesInvalidBodyError, validateResponsesWire, type WirePath } from './validate-wire.js';

export interface DecodedResponsesInput {
  /** Leading system/developer messages (each part marked with its `role`). */
  system: TextPart[];
  messages: CanonicalMessage[];
}

/** Client-side items of hosted tools (results the client sends back) sit in a user message. */
function isClientSideItem(type: string): boolean {
  return type.endsWith('_output') || type.endsWith('_response') || type === 'additional_tools';
}

function decodeReasoning(item: unknown, path: WirePath): ReasoningPart {
  const { type: _type, summary, content, encrypted_content, ...rest } = validateResponsesWire(ResponsesReasoningItemSchema, item, path);
  const fields: Record<string, unknown> = { ...rest };
  const summaryParts = summary ?? [];
  const contentParts = content ?? [];
  let textValue = '';
  if (summaryParts.length > 0 || contentParts.length === 0) {
    textValue = summaryParts.map((part) => part.text).join('\n\n');
    if (summaryParts.length > 1) fields.summary = summaryParts;
    if (contentParts.length > 0) fields.content = contentParts;
  } else {
    textValue = contentParts.map((part) => part.text).join('\n\n');
    fields.reasoning_form = 'reasoning_text';
    if (contentParts.length > 1) fields.content = contentParts;
  }
  const part: ReasoningPart = { type: 'reasoning', text: textValue };
  if (typeof encrypted_content === 'string') {
    const secrets = decodeResponsesEncryptedContent(encrypted_content);
    if (secrets === undefined) fields.encrypted_content = encrypted_content;
    else {
      if (secrets.signature !== undefined) part.signature = secrets.signature;
      if (secrets.redactedData !== undefined) part.redactedData = secrets.redactedData;
    }
  }
  return { ...part, ...decodeResponsesExtensions(fields) };
}

function decodeFunctionCall(item: unknown, path: WirePath): ToolCallPart {
  const {
    type: _type,
    call_id,
    name,
    arguments: args,
    namespace,
    ...rest
  } = validateResponsesWire(ResponsesFunctionCallItemSchema, item, path);
  return {
    type: 'tool-call',
    id: call_id,
    name,
    arguments: args,
    ...(typeof namespace === 'string' ? { namespace } : {}),
    ...decodeResponsesExtensions(rest),
  };
}

function decodeCustomToolCall(item: unknown, path: WirePath): ToolCallPart {
  const { type, call_id, name, input, namespace, ...rest } = validateResponsesWire(ResponsesCustomToolCallItemSchema, item, path);
  return {
    type: 'tool-call',
    id: call_id,
    name,
    arguments: input,
    ...(typeof namespace === 'string' ? { namespace } : {}),
    ...decodeResponsesExtensions({ type, ...rest }),
  };
}

function decodeToolOutput(item: unknown, path: WirePath, custom: boolean): ToolResultPart {
  const schema = custom ? ResponsesCustomToolCallOutputItemSchema : ResponsesFunctionCallOutputItemSchema;
  const { type, call_id, output, ...rest } = validateResponsesWire(schema, item, path);
  return {
    type: 'tool-result',
    toolCallId: call_id,
    content: decodeResponsesToolOutput(output, [...path, 'output']),
    ...decodeResponsesExtensions(custom ? { type, ...rest } : rest),
  };
}

function providerDefined(item: unknown, path: WirePath): ProviderDefinedPart {
  const typed = validateResponsesWire(ResponsesTypedItemSchema, item, path);
  return { type: 'provider-defined', protocol: 'responses', kind: typed.type, data: { ...typed } };
}

/**
 * Turns Responses input items into canonical messages. Adjacent assistant-side items (output
 * messages, function/custom tool calls, reasoning, hosted-tool calls) form one assistant message;
 * adjacent tool outputs form one tool message; leading system/developer messages become `system`.
 */
export function decodeResponsesInput(input: string | readonly unknown[] | undefined, path: WirePath): DecodedResponsesInput {
  const system: TextPart[] = [];
  const messages: CanonicalMessage[] = [];
  if (input === undefined) return { system, messages };
  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };

  const clientItemMessages = new WeakSet<CanonicalMessage>();
  const appendAssistant = (parts: AssistantContentPart[]): void => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') last.content.push(...parts);
    else messages.push({ role: 'assistant', content: parts });
  };
  const appendTool = (part: ToolResultPart): void => {
    const last = messages.at(-1);
    if (last?.role === 'tool') last.content.push(part);
    else messages.push({ role: 'tool', content: [part] });
  };
  const appendClientItem = (part: ProviderDefinedPart): void => {
    const last = messages.at(-1);
    if (last?.role === 'user' && clientItemMessages.has(last)) {
      last.content.push(part);
      return;
    }
    const message: CanonicalMessage = { role: 'user', content: [part] };
    clientItemMessages.add(message);
    messages.push(message);
  };

  input.forEach((item, index) => {
    const itemPath = [...path, index];
    const { type } = validateResponsesWire(ResponsesInputItemEnvelopeSchema, item, itemPath);
    if (type === undefined || type === 'message') {
      if (type === undefined && (typeof item !== 'object' || item === null || !('role' in item))) {
        throw createResponsesInvalidBodyError(itemPath, 'expected an item with a type, or a message with role and content');
      }
      const { type: _type, role, content, ...rest } = validateResponsesWire(ResponsesMessageItemSchema, item, itemPath);
      const contentPath = [...itemPath, 'content'];
      if (role === 'assistant') {
        appendAssistant(decodeResponsesAssistantContent(content, contentPath, rest));
        return;
      }
      if (role === 'user') {
        messages.push({ role: 'user', content: decodeResponsesUserContent(content, contentPath), ...decodeResponsesExtensions(rest) });
      } else if (messages.length === 0) {
        system.push(...decodeResponsesSystemContent(content, contentPath, { role, ...rest }));
      } else {
        const messageFields = role === 'developer' ? { role, ...rest } : rest;
        messages.push({
          role: 'system',
          content: decodeResponsesSystemContent(content, contentPath, {}),
          ...decodeResponsesExtensions(messageFields),
        });
      }
      return;
    }
    switch (type) {
      case 'function_call':
        appendAssistant([decodeFunctionCall(item, itemPath)]);
        return;
      case 'custom_tool_call':
        appendAssistant([decodeCustomToolCall(item, itemPath)]);
        return;
      case 'reasoning':
        appendAssistant([decodeReasoning(item, itemPath)]);
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        appendTool(decodeToolOutput(item, itemPath, type === 'custom_tool_call_output'));
        return;
      default:
        if (isClientSideItem(type)) appendClientItem(providerDefined(item, itemPath));
        else appendAssistant([providerDefined(item, itemPath)]);
    }
  });
  return { system, messages };
}
