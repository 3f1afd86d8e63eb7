import type { AssistantContentPart, Extensions, ReasoningPart, RefusalPart, TextPart, ToolCallPart } from '../../canonical/index.js';
import { decodeResponsesExtensions } from './extensions.js';
import {
  UpstreamFunctionCallSchema,
  UpstreamItemSchema,
  UpstreamMessageItemSchema,
  UpstreamOutputTextSchema,
  UpstreamReasoningSchema,
  UpstreamRefusalSchema,
  type UpstreamFunctionCall,
  type UpstreamMessageItem,
  type UpstreamReasoning,
  type UpstreamStreamEvent,
} from './upstream-schema.js';
import { isPlainMessageItem, isPlainOutputItem, isPlainOutputTextPart, parseUnlessPlain } from './upstream-fast-path.js';

const nonEmpty = (value: unknown[] | null | undefined) => (value != null && value.length > 0 ? value : undefined);

/**
 * An item's Responses-only fields: its keys but `skipped`, minus `status: completed` (the default
 * on replay). Written as a loop, not a rest copy: hot-path rule 1 (docs/architecture.md#hot-path-rules).
 */
function itemFields(item: Record<string, unknown>, skipped: ReadonlySet<string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key in item) {
    if (skipped.has(key) || key === '__proto__' || (key === 'status' && (item.status === 'completed' || item.status == null))) continue;
    fields[key] = item[key];
  }
  return fields;
}

const messageKeys: ReadonlySet<string> = new Set(['type', 'role', 'content']);
const textPartKeys: ReadonlySet<string> = new Set(['type', 'text', 'annotations', 'logprobs']);
const refusalPartKeys: ReadonlySet<string> = new Set(['type', 'refusal']);
const emptyKeys: ReadonlySet<string> = new Set();

/** Copies `source`'s keys but `skipped` into `target`, as `{ ...target, ...rest }` would (a key already there keeps its place). */
function copyInto(target: Record<string, unknown>, source: Record<string, unknown>, skipped: ReadonlySet<string>): void {
  for (const key in source) {
    if (!skipped.has(key) && key !== '__proto__') target[key] = source[key];
  }
}

/** A part with its Responses-only fields in `extensions.responses`, when there are any. */
function withExtensions<T extends { extensions?: Extensions }>(part: T, fields: Record<string, unknown>): T {
  const { extensions } = decodeResponsesExtensions(fields);
  if (extensions !== undefined) part.extensions = extensions;
  return part;
}

function decodeMessage(item: UpstreamMessageItem): AssistantContentPart[] {
  // The item's own fields go on every part.
  const fields = itemFields(item, messageKeys);
  const parts: AssistantContentPart[] = [];
  for (const part of item.content ?? []) {
    const text = parseUnlessPlain(UpstreamOutputTextSchema, isPlainOutputTextPart, part);
    if (text.success) {
      const merged: Record<string, unknown> = {};
      copyInto(merged, fields, emptyKeys);
      copyInto(merged, text.data, textPartKeys);
      merged.annotations = nonEmpty(text.data.annotations);
      merged.logprobs = nonEmpty(text.data.logprobs);
      parts.push(withExtensions<TextPart>({ type: 'text', text: text.data.text }, merged));
      continue;
    }
    const refusal = UpstreamRefusalSchema.safeParse(part);
    if (refusal.success) {
      const merged: Record<string, unknown> = {};
      copyInto(merged, fields, emptyKeys);
      copyInto(merged, refusal.data, refusalPartKeys);
      parts.push(withExtensions<RefusalPart>({ type: 'refusal', text: refusal.data.refusal }, merged));
    }
  }
  return parts;
}

function decodeCall(item: UpstreamFunctionCall): ToolCallPart {
  const { type, call_id, name, arguments: args, input, namespace, ...rest } = item;
  const custom = type === 'custom_tool_call';
  return {
    type: 'tool-call',
    id: call_id,
    name,
    arguments: (custom ? input : args) ?? '',
    ...(typeof namespace === 'string' ? { namespace } : {}),
    ...decodeResponsesExtensions(itemFields(custom ? { type, ...rest } : rest, emptyKeys)),
  };
}

/** Summary text (OpenAI) or reasoning text (open-weight models); `encrypted_content` is kept for replay. */
function decodeReasoning(item: UpstreamReasoning): ReasoningPart {
  const { type: _type, summary, content, ...rest } = item;
  const summaryParts = summary ?? [];
  const contentParts = content ?? [];
  const fields = itemFields(rest, emptyKeys);
  let text: string;
  if (summaryParts.length > 0 || contentParts.length === 0) {
    text = summaryParts.map((part) => part.text ?? '').join('\n\n');
    if (summaryParts.length > 1) fields.summary = summaryParts;
    if (contentParts.length > 0) fields.content = contentParts;
  } else {
    text = contentParts.map((part) => part.text ?? '').join('\n\n');
    fields.reasoning_form = 'reasoning_text';
    if (contentParts.length > 1) fields.content = contentParts;
  }
  return { type: 'reasoning', text, ...decodeResponsesExtensions(fields) };
}

/**
 * One upstream output item → canonical content: `message` → text/refusal parts, `function_call`
 * and `custom_tool_call` → tool calls (`call_id` is the canonical id, the `fc_` item id is kept in
 * extensions), `reasoning` → a reasoning part; hosted-tool items (`web_search_call`…) travel
 * verbatim as provider-defined parts. Item ids and other Responses fields ride in `extensions.responses`.
 */
export function decodeResponsesOutputItem(item: unknown): AssistantContentPart[] {
  const typed = parseUnlessPlain(UpstreamItemSchema, isPlainOutputItem, item);
  if (!typed.success) return [];
  switch (typed.data.type) {
    case 'message': {
      const message = parseUnlessPlain(UpstreamMessageItemSchema, isPlainMessageItem, item);
      return message.success ? decodeMessage(message.data) : [];
    }
    case 'function_call':
    case 'custom_tool_call': {
      const call = UpstreamFunctionCallSchema.safeParse(item);
      return call.success ? [decodeCall(call.data)] : [];
    }
    case 'reasoning': {
      const reasoning = UpstreamReasoningSchema.safeParse(item);
      return reasoning.success ? [decodeReasoning(reasoning.data)] : [];
    }
    default:
      return [{ type: 'provider-defined', protocol: 'responses', kind: typed.data.type, data: { ...typed.data } }];
  }
}

/** What a finished streamed reasoning item adds for replay: its id and OpenAI's `encrypted_content`. */
export function decodeResponsesReasoningEndExtensions(item: UpstreamStreamEvent['item']): Extensions | undefined {
  if (item?.type !== 'reasoning') return undefined;
  const encrypted = (item as { encrypted_content?: unknown }).encrypted_content;
  const fields = {
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    ...(typeof encrypted === 'string' ? { encrypted_content: encrypted } : {}),
  };
  return Object.keys(fields).length === 0 ? undefined : { responses: fields };
}
