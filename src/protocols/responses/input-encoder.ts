import type {
  AssistantMessage,
  CanonicalRequest,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolMessage,
  UserMessage,
} from '../../canonical/index.js';
import {
  encodeResponsesProviderDefined,
  encodeResponsesToolOutput,
  encodeResponsesUserPart,
  type ResponsesWireObject,
} from './content-encoder.js';
import { readResponsesExtensions } from './extensions.js';
import { mintResponsesItemId } from './minted-id.js';
import { isResponsesCustomTool } from './output-items.js';
import type { ResponsesItemPrefix } from './wire-id.js';

export interface EncodedResponsesInput {
  /** The system parts that were not input items, joined by blank lines. */
  instructions?: string;
  input: ResponsesWireObject[];
}

/** The item id a part brought from a Responses client, if it has OpenAI's prefix. */
function ownId(extensions: Record<string, unknown>, prefix: ResponsesItemPrefix): string | undefined {
  const { id } = extensions;
  return typeof id === 'string' && id.startsWith(`${prefix}_`) ? id : undefined;
}

/** Leading system parts: unmarked ones → `instructions`; ones that came as system/developer items → those items again. */
function encodeSystem(parts: readonly TextPart[]): EncodedResponsesInput {
  const instructions: string[] = [];
  const input: ResponsesWireObject[] = [];
  let last: { role: string; id: unknown; content: ResponsesWireObject[] } | undefined;
  for (const part of parts) {
    const extensions = readResponsesExtensions(part);
    const role = extensions.role;
    if (role !== 'system' && role !== 'developer') {
      instructions.push(part.text);
      last = undefined;
      continue;
    }
    const { role: _role, id, status, type: _type, ...partFields } = extensions;
    const wirePart = { type: 'input_text', text: part.text, ...partFields };
    if (last !== undefined && last.role === role && last.id === id) {
      last.content.push(wirePart);
      continue;
    }
    last = { role, id, content: [wirePart] };
    input.push({
      type: 'message',
      role,
      content: last.content,
      ...(id === undefined ? {} : { id }),
      ...(status === undefined ? {} : { status }),
    });
  }
  // Hot-path rule 1 (docs/architecture.md#hot-path-rules).
  return instructions.length === 0 ? { input } : { instructions: instructions.join('\n\n'), input };
}

function encodeSystemMessage(message: SystemMessage): ResponsesWireObject {
  const { role, ...fields } = readResponsesExtensions(message);
  return {
    type: 'message',
    role: role === 'developer' ? 'developer' : 'system',
    content: message.content.map((part) => ({ type: 'input_text', text: part.text, ...readResponsesExtensions(part) })),
    ...fields,
  };
}

/** Responses client-side items (`computer_call_output`, `mcp_approval_response`…) that the decoder put in a user message. */
const isClientItem = (kind: string) => kind.endsWith('_output') || kind.endsWith('_response') || kind === 'additional_tools';

function encodeUserMessage(message: UserMessage, model: string, out: ResponsesWireObject[]): void {
  let content: ResponsesWireObject[] = [];
  const flush = () => {
    if (content.length > 0) out.push({ type: 'message', role: 'user', content, ...readResponsesExtensions(message) });
    content = [];
  };
  for (const part of message.content) {
    if (part.type === 'provider-defined' && part.protocol === 'responses' && isClientItem(part.kind)) {
      flush();
      out.push(encodeResponsesProviderDefined(part, model));
    } else content.push(encodeResponsesUserPart(part, model));
  }
  flush();
}

/**
 * A reasoning part is replayed only as OpenAI made it: with its OpenAI `encrypted_content`, or by
 * its `rs_` id (a Responses client relying on stored items). Anthropic signatures and redacted
 * data are never forwarded, and reasoning text alone cannot be given back to an OpenAI model.
 */
function encodeReasoning(part: ReasoningPart, seed: string): ResponsesWireObject | undefined {
  const { id, encrypted_content, summary, content, reasoning_form, ...fields } = readResponsesExtensions(part);
  const storedId = typeof id === 'string' && id.startsWith('rs_') ? id : undefined;
  if (typeof encrypted_content !== 'string' && storedId === undefined) return undefined;
  const asReasoningText = reasoning_form === 'reasoning_text';
  const summaryParts = Array.isArray(summary)
    ? summary
    : asReasoningText || part.text === ''
      ? []
      : [{ type: 'summary_text', text: part.text }];
  const contentParts = Array.isArray(content) ? content : asReasoningText ? [{ type: 'reasoning_text', text: part.text }] : undefined;
  return {
    type: 'reasoning',
    id: storedId ?? mintResponsesItemId('rs', seed),
    summary: summaryParts,
    ...(contentParts === undefined ? {} : { content: contentParts }),
    ...(typeof encrypted_content === 'string' ? { encrypted_content } : {}),
    ...fields,
  };
}

function encodeAssistantMessage(
  message: AssistantMessage,
  position: number,
  request: CanonicalRequest,
  customCalls: Set<string>,
  out: ResponsesWireObject[],
): void {
  let open: { content: ResponsesWireObject[]; sourceId: string | undefined } | undefined;
  message.content.forEach((part, index) => {
    const seed = `${position}.${index}`;
    if (part.type === 'text' || part.type === 'refusal') {
      const extensions = readResponsesExtensions(part);
      const { id: _id, status, phase, part_type, ...partFields } = extensions;
      const sourceId = ownId(extensions, 'msg');
      if (part.type === 'text' && part.text === '' && sourceId === undefined) return;
      const wirePart =
        part.type === 'refusal'
          ? { type: 'refusal', refusal: part.text, ...partFields }
          : {
              type: part_type === 'input_text' ? 'input_text' : 'output_text',
              text: part.text,
              ...(part_type === 'input_text' ? {} : { annotations: [] }),
              ...partFields,
            };
      if (open !== undefined && open.sourceId === sourceId) {
        open.content.push(wirePart);
        return;
      }
      open = { content: [wirePart], sourceId };
      out.push({
        type: 'message',
        role: 'assistant',
        id: sourceId ?? mintResponsesItemId('msg', `${seed}:${part.text}`),
        status: typeof status === 'string' ? status : 'completed',
        content: open.content,
        ...(phase === undefined ? {} : { phase }),
      });
      return;
    }
    open = undefined;
    if (part.type === 'reasoning') {
      const item = encodeReasoning(part, seed);
      if (item !== undefined) out.push(item);
    } else if (part.type === 'tool-call') {
      const extensions = readResponsesExtensions(part);
      const { id: _id, type, ...fields } = extensions;
      const namespace = part.namespace === undefined ? {} : { namespace: part.namespace };
      if (type === 'custom_tool_call' || isResponsesCustomTool(part.name, request)) {
        customCalls.add(part.id);
        const id = ownId(extensions, 'ctc') ?? mintResponsesItemId('ctc', part.id);
        out.push({ type: 'custom_tool_call', id, call_id: part.id, name: part.name, input: part.arguments, ...namespace, ...fields });
      } else {
        const id = ownId(extensions, 'fc') ?? mintResponsesItemId('fc', part.id);
        const args = part.arguments.trim() === '' ? '{}' : part.arguments;
        out.push({ type: 'function_call', id, call_id: part.id, name: part.name, arguments: args, ...namespace, ...fields });
      }
    } else {
      out.push(encodeResponsesProviderDefined(part, request.model));
    }
  });
}

function encodeToolMessage(message: ToolMessage, model: string, customCalls: Set<string>, out: ResponsesWireObject[]): void {
  for (const result of message.content) {
    const { type, ...fields } = readResponsesExtensions(result);
    const custom = type === 'custom_tool_call_output' || customCalls.has(result.toolCallId);
    out.push({
      type: custom ? 'custom_tool_call_output' : 'function_call_output',
      call_id: result.toolCallId,
      output: encodeResponsesToolOutput(result, model),
      ...fields,
    });
  }
}

/**
 * Canonical system + messages → `instructions` and Responses input items. An assistant turn
 * becomes separate items (reasoning, one `message` per run of text, one `function_call` per call)
 * with OpenAI-format item ids (kept when the client sent them, minted otherwise) while `call_id`
 * stays the canonical tool call id; each tool result is one `function_call_output`.
 */
export function encodeResponsesInput(request: CanonicalRequest): EncodedResponsesInput {
  const encoded = encodeSystem(request.system ?? []);
  const out = encoded.input;
  const customCalls = new Set<string>();
  request.messages.forEach((message, position) => {
    switch (message.role) {
      case 'system':
        out.push(encodeSystemMessage(message));
        return;
      case 'user':
        encodeUserMessage(message, request.model, out);
        return;
      case 'assistant':
        encodeAssistantMessage(message, position, request, customCalls, out);
        return;
      case 'tool':
        encodeToolMessage(message, request.model, customCalls, out);
        return;
    }
  });
  return encoded;
}
