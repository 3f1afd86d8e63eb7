import { finishReason, type FinishReason, type Usage } from '../../canonical/index.js';
import { decodeChatFinishReason } from './finish-reason.js';
import { decodeChatUsage } from './usage.js';
import type { ChatUpstreamMessage, ChatUpstreamUsage } from './upstream-schema.js';

/**
 * Usage from wherever the upstream put it: `usage`, else Groq's `x_groq.usage`. DeepSeek's
 * `prompt_cache_hit_tokens` counts as cache reads when `prompt_tokens_details` is absent.
 * Missing counts stay undefined — unknown is never billed as zero.
 */
export function decodeChatUpstreamUsage(
  usage: ChatUpstreamUsage | null | undefined,
  groqUsage?: ChatUpstreamUsage | null,
): Usage | undefined {
  const wire = usage ?? groqUsage ?? undefined;
  if (wire === undefined) return undefined;
  const decoded = decodeChatUsage(wire);
  const hit = wire.prompt_cache_hit_tokens;
  if (decoded.cachedInputTokens === undefined && typeof hit === 'number') decoded.cachedInputTokens = hit;
  return decoded;
}

/** The answer's text and reasoning text in a `message` or `delta`, wherever the server put them. */
export interface ChatUpstreamText {
  text: string;
  reasoning: string;
}

function thinkingText(thinking: string | readonly { text?: string | null | undefined }[] | null | undefined): string {
  if (typeof thinking === 'string') return thinking;
  return (thinking ?? []).map((part) => part.text ?? '').join('');
}

/**
 * Text and reasoning of a message or delta. Reasoning is `reasoning_content ?? reasoning`
 * (DeepSeek/vLLM/llama.cpp vs OpenRouter/Ollama/newer vLLM), plus Mistral `thinking` content
 * parts; it never lands in the text.
 */
export function readChatUpstreamText(message: ChatUpstreamMessage): ChatUpstreamText {
  let reasoning = message.reasoning_content ?? message.reasoning ?? '';
  let text = '';
  const { content } = message;
  if (typeof content === 'string') text = content;
  else {
    for (const part of content ?? []) {
      if (part.type === 'thinking') reasoning += thinkingText(part.thinking);
      else if (part.type === 'text') text += part.text ?? '';
    }
  }
  return { text, reasoning };
}

/**
 * An upstream `finish_reason` → canonical. `""` counts as absent; DeepSeek's
 * `insufficient_system_resource` and OpenRouter's `error` are errors, Together's `eos` is a stop.
 * When tool calls were made the reason is `tool-calls` whatever the server said (several say `stop`).
 */
export function decodeChatUpstreamFinishReason(raw: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const word = raw === '' || raw === null ? undefined : raw;
  if (hasToolCalls) return finishReason('tool-calls', word);
  switch (word) {
    case undefined:
      return { unified: 'stop' };
    case 'eos':
      return { unified: 'stop', raw: word };
    case 'error':
    case 'insufficient_system_resource':
      return { unified: 'error', raw: word };
    default:
      return decodeChatFinishReason(word);
  }
}
