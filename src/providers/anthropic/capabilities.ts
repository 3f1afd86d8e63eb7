import type { ModelCapabilities } from '../types.js';

/** Claude models from before extended thinking (3.7): no reasoning. */
const withoutThinking = /^claude-(3-(opus|sonnet|haiku)|3-5-|instant|2)/;

/**
 * What a Claude model accepts: text, tools, images, PDF/text documents, JSON-schema output and
 * Anthropic's server tools; no audio. Thinking from Claude 3.7 on.
 */
export function anthropicCapabilities(model: string): ModelCapabilities {
  return {
    streaming: true,
    tools: true,
    images: true,
    files: true,
    audio: false,
    reasoning: !withoutThinking.test(model),
    structuredOutput: true,
    providerTools: ['messages'],
  };
}
