import type { ModelCapabilities } from '../types.js';

/** The model family, without a fine-tune prefix: `ft:gpt-4o-mini:org::id` → `gpt-4o-mini:org::id`. */
function baseName(model: string): string {
  return model.startsWith('ft:') ? model.slice(3) : model;
}

/**
 * What an OpenAI model accepts, from its id. Only what the id says for sure is stated; the
 * rest falls back to the model's configuration (then "yes"), so a new family is not refused.
 * - reasoning: not the GPT-4/GPT-3.5 families (`reasoning_effort` is a 400 there);
 * - images and files: not GPT-3.5, `o1-mini`, `o3-mini`;
 * - audio input: only the `*audio*` models;
 * - provider-defined tools and parts of Chat (`custom` grammar tools, …) are accepted.
 */
export function openAIModelCapabilities(model: string): Partial<ModelCapabilities> {
  const name = baseName(model);
  const capabilities: Partial<ModelCapabilities> = { providerTools: ['chat'], audio: /audio/.test(name) };
  if (/^(gpt-4|gpt-3\.5|chatgpt-4o)/.test(name)) capabilities.reasoning = false;
  if (/^(gpt-3\.5|o1-mini|o3-mini)/.test(name)) {
    capabilities.images = false;
    capabilities.files = false;
  }
  return capabilities;
}
