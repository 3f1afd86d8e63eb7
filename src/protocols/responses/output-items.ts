import type { AssistantContentPart, CanonicalRequest, ReasoningPart, RefusalPart, TextPart, ToolCallPart } from '../../canonical/index.js';
import { encodeResponsesEncryptedContent } from './encrypted-content.js';
import { readResponsesExtensions } from './extensions.js';
import { encodeResponsesItemId, type ResponsesItemPrefix } from './wire-id.js';

export type ResponsesItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface ResponsesOutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}
export interface ResponsesRefusalPart {
  type: 'refusal';
  refusal: string;
}
export interface ResponsesMessageOutput {
  id: string;
  type: 'message';
  status: ResponsesItemStatus;
  role: 'assistant';
  content: (ResponsesOutputTextPart | ResponsesRefusalPart)[];
  phase?: string;
}
export interface ResponsesFunctionCallOutput {
  id: string;
  type: 'function_call';
  status: ResponsesItemStatus;
  call_id: string;
  name: string;
  arguments: string;
  namespace?: string;
}
export interface ResponsesCustomToolCallOutput {
  id: string;
  type: 'custom_tool_call';
  status: ResponsesItemStatus;
  call_id: string;
  name: string;
  input: string;
  namespace?: string;
}
export interface ResponsesReasoningOutput {
  id: string;
  type: 'reasoning';
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content: string | null;
  status: ResponsesItemStatus;
}
export type ResponsesOutputItem =
  | ResponsesMessageOutput
  | ResponsesFunctionCallOutput
  | ResponsesCustomToolCallOutput
  | ResponsesReasoningOutput
  | ({ type: string } & Record<string, unknown>);

const ownItemTypes = new Set(['message', 'function_call', 'custom_tool_call', 'reasoning']);
const arrayOr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** True when the request declared `name` as a `custom` (free-form input) tool. */
export function isResponsesCustomTool(name: string, request: CanonicalRequest): boolean {
  return (request.tools ?? []).some(
    (tool) => tool.type === 'provider-defined' && tool.protocol === 'responses' && tool.kind === 'custom' && tool.name === name,
  );
}

export function encodeResponsesTextPart(part: TextPart): ResponsesOutputTextPart {
  const extensions = readResponsesExtensions(part);
  return { type: 'output_text', text: part.text, annotations: arrayOr(extensions.annotations), logprobs: arrayOr(extensions.logprobs) };
}

export function encodeResponsesReasoningItem(
  id: string,
  part: Pick<ReasoningPart, 'text' | 'signature' | 'redactedData' | 'extensions'>,
  status: ResponsesItemStatus,
): ResponsesReasoningOutput {
  const extensions = readResponsesExtensions(part);
  const asReasoningText = extensions.reasoning_form === 'reasoning_text';
  const minted = encodeResponsesEncryptedContent(part);
  const kept = typeof extensions.encrypted_content === 'string' ? extensions.encrypted_content : null;
  return {
    id,
    type: 'reasoning',
    summary: asReasoningText || part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    ...(asReasoningText ? { content: [{ type: 'reasoning_text' as const, text: part.text }] } : {}),
    encrypted_content: minted ?? kept,
    status,
  };
}

export function encodeResponsesToolCallItem(
  id: string,
  part: Pick<ToolCallPart, 'id' | 'name' | 'arguments' | 'namespace'>,
  custom: boolean,
  status: ResponsesItemStatus,
): ResponsesFunctionCallOutput | ResponsesCustomToolCallOutput {
  const namespace = part.namespace === undefined ? {} : { namespace: part.namespace };
  return custom
    ? { id, type: 'custom_tool_call', status, call_id: part.id, name: part.name, input: part.arguments, ...namespace }
    : { id, type: 'function_call', status, call_id: part.id, name: part.name, arguments: part.arguments, ...namespace };
}

function encodeRefusalPart(part: RefusalPart): ResponsesRefusalPart {
  return { type: 'refusal', refusal: part.text };
}

function providedId(part: AssistantContentPart, prefix: ResponsesItemPrefix): string | undefined {
  if (part.type === 'provider-defined') return undefined;
  const id = readResponsesExtensions(part).id;
  return typeof id === 'string' && id.startsWith(`${prefix}_`) ? id : undefined;
}

/**
 * Canonical answer content → Responses output items. Each text/refusal part is its own message
 * item unless adjacent parts carry the same Responses item id; ids already in OpenAI's format
 * are kept, others are minted from the request id. `lastStatus` is the status of the final item
 * (`incomplete` when the answer was cut off).
 */
export function encodeResponsesOutput(
  content: readonly AssistantContentPart[],
  requestId: string,
  request: CanonicalRequest,
  lastStatus: ResponsesItemStatus,
): ResponsesOutputItem[] {
  const items: ResponsesOutputItem[] = [];
  let message: { item: ResponsesMessageOutput; sourceId: string | undefined } | undefined;
  const idFor = (part: AssistantContentPart, prefix: ResponsesItemPrefix) =>
    providedId(part, prefix) ?? encodeResponsesItemId(requestId, prefix, items.length);

  for (const part of content) {
    if (part.type === 'text' || part.type === 'refusal') {
      const sourceId = providedId(part, 'msg');
      const wirePart = part.type === 'text' ? encodeResponsesTextPart(part) : encodeRefusalPart(part);
      if (message !== undefined && sourceId !== undefined && message.sourceId === sourceId) {
        message.item.content.push(wirePart);
        continue;
      }
      const phase = readResponsesExtensions(part).phase;
      const item: ResponsesMessageOutput = {
        id: idFor(part, 'msg'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [wirePart],
      };
      if (typeof phase === 'string') item.phase = phase;
      items.push(item);
      message = { item, sourceId };
      continue;
    }
    message = undefined;
    if (part.type === 'reasoning') items.push(encodeResponsesReasoningItem(idFor(part, 'rs'), part, 'completed'));
    else if (part.type === 'tool-call') {
      const custom = readResponsesExtensions(part).type === 'custom_tool_call' || isResponsesCustomTool(part.name, request);
      const call = custom ? part : { ...part, arguments: part.arguments || '{}' };
      items.push(encodeResponsesToolCallItem(idFor(part, custom ? 'ctc' : 'fc'), call, custom, 'completed'));
    } else if (part.protocol === 'responses') {
      items.push({ ...part.data, type: part.kind });
    }
  }
  const last = items.at(-1);
  if (last !== undefined && lastStatus !== 'completed' && ownItemTypes.has(last.type)) last.status = lastStatus;
  return items;
}
