import type { ModelCapabilities } from '../types.js';

/** OpenAI models that reason (o-series, GPT-5 family, Codex, computer-use). */
const reasoningModel = /^(o\d|gpt-5|codex|computer-use)/i;
/** Older chat models known not to reason. */
const plainModel = /^(gpt-4|gpt-3\.5|chatgpt)/i;

/**
 * What an OpenAI model accepts through the Responses API. Reasoning is told from the model name
 * when it is a known OpenAI family and left to the model configuration otherwise; audio input is
 * not accepted by the Responses API; hosted tools (web_search, file_search…) are Responses tools.
 */
export function openAIResponsesCapabilities(model: string): Partial<ModelCapabilities> {
  const capabilities: Partial<ModelCapabilities> = {
    streaming: true,
    tools: true,
    images: true,
    files: true,
    audio: false,
    structuredOutput: true,
    providerTools: ['responses'],
  };
  if (reasoningModel.test(model)) capabilities.reasoning = true;
  else if (plainModel.test(model)) capabilities.reasoning = false;
  return capabilities;
}
