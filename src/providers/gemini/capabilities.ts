import { geminiThinkingControl } from '../../protocols/gemini/index.js';
import type { ModelCapabilities } from '../types.js';

/**
 * What a Gemini model accepts. Every Gemini model streams, calls functions, reads images,
 * documents and audio, and writes JSON; only thinking models (2.5, 3.x and later) reason.
 * Gemma models served by the same API take images and text only. Gemini's own built-in tools
 * (`googleSearch`, `codeExecution`, …) have no canonical form, so no provider tools are accepted.
 */
export function geminiCapabilities(model: string): ModelCapabilities {
  const gemma = /^(?:.*\/)?gemma/i.test(model);
  return {
    streaming: true,
    tools: !gemma,
    images: true,
    files: !gemma,
    audio: !gemma,
    reasoning: geminiThinkingControl(model).kind !== 'none',
    structuredOutput: !gemma,
    providerTools: [],
  };
}
