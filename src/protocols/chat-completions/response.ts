import type { AssistantContentPart, CanonicalResponse, ReasoningPart } from '../../canonical/index.js';
import type { EncodeContext } from '../codec.js';
import { encodeChatFinishReason, type ChatFinishReason } from './finish-reason.js';
import { isChatLegacyFunctionRequest } from './tools.js';
import { encodeChatUsage, type ChatUsage } from './usage.js';

export type ChatResponseToolCall =
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

/** LiteLLM-style reasoning blocks: the carrier of Anthropic signatures on this protocol. */
export type ChatThinkingBlockOut = { type: 'thinking'; thinking: string; signature?: string } | { type: 'redacted_thinking'; data: string };

export interface ChatResponseMessage {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  annotations: unknown[];
  tool_calls?: ChatResponseToolCall[];
  function_call?: { name: string; arguments: string };
  reasoning_content?: string;
  thinking_blocks?: ChatThinkingBlockOut[];
}

/** The non-streamed Chat completion body (openai `ChatCompletion`). */
export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [{ index: 0; message: ChatResponseMessage; logprobs: unknown; finish_reason: ChatFinishReason }];
  /** Left out when the upstream reported no usage. */
  usage?: ChatUsage;
  service_tier?: string;
  system_fingerprint?: string;
}

/** The wire id: a provider id already in Chat form is kept, else `chatcmpl-<request id suffix>`. */
export function encodeChatCompletionId(id: string | undefined, requestId: string): string {
  if (id?.startsWith('chatcmpl-')) return id;
  return `chatcmpl-${requestId.startsWith('req_') ? requestId.slice('req_'.length) : requestId}`;
}

/** Empty argument text is not JSON; a call without arguments is `{}`. */
export function encodeChatArguments(text: string): string {
  return text.trim() === '' ? '{}' : text;
}

function encodeToolCall(part: AssistantContentPart): ChatResponseToolCall | undefined {
  if (part.type === 'tool-call') {
    const fn = { name: part.name, arguments: encodeChatArguments(part.arguments) };
    return { id: part.id, type: 'function', function: fn };
  }
  if (part.type === 'provider-defined' && part.protocol === 'chat' && part.kind === 'custom_tool_call') {
    const { id, custom } = part.data;
    if (typeof id !== 'string' || typeof custom !== 'object' || custom === null) return undefined;
    if (!('name' in custom) || !('input' in custom)) return undefined;
    const { name, input } = custom;
    if (typeof name !== 'string' || typeof input !== 'string') return undefined;
    return { id, type: 'custom', custom: { name, input } };
  }
  return undefined;
}

/** Signed or redacted reasoning travels in `thinking_blocks` so the client can send it back. */
export function encodeChatThinkingBlock(part: ReasoningPart): ChatThinkingBlockOut {
  if (part.redactedData !== undefined) return { type: 'redacted_thinking', data: part.redactedData };
  const signature = part.signature === undefined ? {} : { signature: part.signature };
  return { type: 'thinking', thinking: part.text, ...signature };
}

/** One pass over the parts: this runs on every answer. */
function encodeMessage(content: readonly AssistantContentPart[], legacyFunctions: boolean): ChatResponseMessage {
  let text: string | undefined;
  let refusal: string | undefined;
  let reasoning: ReasoningPart[] | undefined;
  let calls: ChatResponseToolCall[] | undefined;
  for (const part of content) {
    if (part.type === 'text') text = text === undefined ? part.text : text + part.text;
    else if (part.type === 'refusal') refusal = refusal === undefined ? part.text : refusal + part.text;
    else if (part.type === 'reasoning') (reasoning ??= []).push(part);
    else {
      const call = encodeToolCall(part);
      if (call !== undefined) (calls ??= []).push(call);
    }
  }
  const message: ChatResponseMessage = { role: 'assistant', content: text ?? null, refusal: refusal ?? null, annotations: [] };
  const firstCall = calls?.[0];
  if (legacyFunctions && firstCall?.type === 'function') message.function_call = firstCall.function;
  else if (calls !== undefined) message.tool_calls = calls;
  if (reasoning !== undefined) {
    message.reasoning_content = reasoning.map((part) => part.text).join('');
    if (reasoning.some((part) => part.signature !== undefined || part.redactedData !== undefined)) {
      message.thinking_blocks = reasoning.map(encodeChatThinkingBlock);
    }
  }
  return message;
}

/**
 * A canonical response → the Chat completion body for `context.request`.
 *
 * One choice; `model` is the id the caller asked for; `content`/`refusal` are joined text or
 * null; `tool_calls` is left out when there are none (`function_call` when the caller used the
 * deprecated `functions`); reasoning goes to `reasoning_content` (+ `thinking_blocks` when signed),
 * never into `content`. `service_tier`, `system_fingerprint` and `logprobs` from a Chat provider
 * (`response.extensions.chat`) are passed on.
 */
export function encodeChatResponse(response: CanonicalResponse, context: EncodeContext): ChatResponse {
  const legacyFunctions = isChatLegacyFunctionRequest(context.request);
  const message = encodeMessage(response.content, legacyFunctions);
  const callsFinish = message.function_call !== undefined ? 'function_call' : message.tool_calls !== undefined ? 'tool_calls' : undefined;
  const extensions = response.extensions?.chat;
  const body: ChatResponse = {
    id: encodeChatCompletionId(response.id, context.requestId),
    object: 'chat.completion',
    created: context.created,
    model: context.request.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: extensions?.logprobs ?? null,
        finish_reason: encodeChatFinishReason(response.finishReason, callsFinish),
      },
    ],
  };
  const usage = encodeChatUsage(response.usage);
  if (usage !== undefined) body.usage = usage;
  if (typeof extensions?.service_tier === 'string') body.service_tier = extensions.service_tier;
  if (typeof extensions?.system_fingerprint === 'string') body.system_fingerprint = extensions.system_fingerprint;
  return body;
}
