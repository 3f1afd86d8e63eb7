import type { AssistantContentPart, CanonicalResponse, ReasoningPart } from '../../canonical/index.js';
import { GatewayError } from '../../canonical/index.js';
import { parseChatInBandError } from './upstream-error.js';
import { decodeChatUpstreamFinishReason, decodeChatUpstreamUsage, readChatUpstreamText } from './upstream-message.js';
import { isPlainChatResponse } from './upstream-fast-path.js';
import {
  chatUpstreamResponseSchema,
  type ChatUpstreamMessage,
  type ChatUpstreamResponse,
  type ChatUpstreamToolCall,
} from './upstream-schema.js';

/** `arguments` as JSON text: llama.cpp builds may send an object; a missing value is `{}`. */
export function decodeChatUpstreamArguments(value: string | Record<string, unknown> | null | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Ids are kept verbatim; a server that sent none gets a stable one derived from the answer id. */
export function mintChatToolCallId(responseId: string, index: number): string {
  return `call_${responseId.replace(/[^a-zA-Z0-9_-]/g, '') || 'gateway'}_${index}`;
}

function decodeToolCall(call: ChatUpstreamToolCall, responseId: string, index: number): AssistantContentPart {
  const id = call.id || mintChatToolCallId(responseId, index);
  if (call.type === 'custom' && call.custom) {
    const custom = { name: call.custom.name ?? '', input: call.custom.input ?? '' };
    return { type: 'provider-defined', protocol: 'chat', kind: 'custom_tool_call', data: { id, type: 'custom', custom } };
  }
  return { type: 'tool-call', id, name: call.function?.name ?? '', arguments: decodeChatUpstreamArguments(call.function?.arguments) };
}

/** LiteLLM-style `thinking_blocks` keep Anthropic signatures; otherwise the reasoning text is one part. */
function decodeReasoning(message: ChatUpstreamMessage, text: string): ReasoningPart[] {
  const blocks = message.thinking_blocks ?? [];
  if (blocks.length > 0) {
    return blocks.map((block): ReasoningPart => {
      if (block.type === 'redacted_thinking') return { type: 'reasoning', text: '', redactedData: block.data ?? '' };
      const signature = block.signature ?? undefined;
      return { type: 'reasoning', text: block.thinking ?? '', ...(signature === undefined ? {} : { signature }) };
    });
  }
  return text === '' ? [] : [{ type: 'reasoning', text }];
}

function decodeContent(message: ChatUpstreamMessage, responseId: string): AssistantContentPart[] {
  const { text, reasoning } = readChatUpstreamText(message);
  const content: AssistantContentPart[] = decodeReasoning(message, reasoning);
  const annotations = message.annotations ?? [];
  if (text !== '') {
    content.push(annotations.length === 0 ? { type: 'text', text } : { type: 'text', text, extensions: { chat: { annotations } } });
  }
  if (message.refusal) content.push({ type: 'refusal', text: message.refusal });
  (message.tool_calls ?? []).forEach((call, index) => content.push(decodeToolCall(call, responseId, index)));
  const legacy = message.function_call;
  if (legacy?.name) {
    const id = mintChatToolCallId(responseId, content.length);
    content.push({ type: 'tool-call', id, name: legacy.name, arguments: legacy.arguments ?? '' });
  }
  return content;
}

function invalidBody(cause: unknown): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_INVALID_RESPONSE',
    message: 'The provider answered with a body that is not a Chat Completions response.',
    cause,
  });
}

/**
 * A non-streamed Chat Completions answer → canonical response (the first choice).
 *
 * Reasoning (`reasoning_content`, `reasoning`, Mistral thinking parts, LiteLLM `thinking_blocks`)
 * becomes reasoning parts first, never text; tool-call ids are kept; `arguments` objects are
 * stringified; the finish reason is `tool-calls` when calls are present; usage keeps cache and
 * reasoning counts. `service_tier`, `system_fingerprint` and the choice's `logprobs` stay in
 * `extensions.chat` for a Chat caller. A body carrying `error` (OpenRouter answers 200 so) or a
 * finish reason meaning failure throws.
 */
export function decodeChatResponse(body: unknown): CanonicalResponse {
  let wire: ChatUpstreamResponse;
  if (isPlainChatResponse(body)) wire = body;
  else {
    const parsed = chatUpstreamResponseSchema.safeParse(body);
    if (!parsed.success) throw invalidBody(body);
    wire = parsed.data;
  }
  if (wire.error !== undefined && wire.error !== null) throw parseChatInBandError(body);
  const choice = wire.choices?.[0];
  if (choice === undefined) throw invalidBody(body);
  const id = wire.id ?? '';
  const content = decodeContent(choice.message ?? {}, id);
  const hasCalls = content.some((part) => part.type === 'tool-call' || part.type === 'provider-defined');
  const finishReason = decodeChatUpstreamFinishReason(choice.finish_reason, hasCalls);
  if (finishReason.unified === 'error') {
    throw new GatewayError({
      code: 'UPSTREAM_GENERATION_FAILED',
      message: `The provider stopped generating with finish reason '${finishReason.raw ?? 'error'}'.`,
    });
  }
  let extensions: Record<string, unknown> | undefined;
  if (wire.service_tier !== undefined && wire.service_tier !== null) (extensions ??= {}).service_tier = wire.service_tier;
  if (wire.system_fingerprint !== undefined && wire.system_fingerprint !== null)
    (extensions ??= {}).system_fingerprint = wire.system_fingerprint;
  if (choice.logprobs !== undefined && choice.logprobs !== null) (extensions ??= {}).logprobs = choice.logprobs;
  return {
    id,
    model: wire.model ?? '',
    content,
    finishReason,
    usage: decodeChatUpstreamUsage(wire.usage, wire.x_groq?.usage) ?? {},
    ...(extensions === undefined ? {} : { extensions: { chat: extensions } }),
  };
}
