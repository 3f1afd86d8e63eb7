import type { CatalogCapabilities, CuratedModel } from '../catalog-model.js';

// OpenAI's model pages (https://platform.openai.com/docs/models), read 2026-11. Most specific first.
const reasoning: CatalogCapabilities = { tools: true, images: true, files: true, audio: false, reasoning: true, structuredOutput: true };
const chat: CatalogCapabilities = { ...reasoning, reasoning: false };
const textOnly: CatalogCapabilities = { images: false, files: false, audio: false };

export const openAIModels: readonly CuratedModel[] = [
  {
    id: 'gpt-5-pro',
    match: /^gpt-5(\.\d+)?-pro/,
    contextWindow: 400_000,
    maxOutputTokens: 272_000,
    capabilities: reasoning,
    reasoningControl: 'effort',
  },
  { id: 'gpt-5-chat', match: /^gpt-5(\.\d+)?-chat/, contextWindow: 128_000, maxOutputTokens: 16_384, capabilities: chat },
  // The window comes from the price source: 400k for GPT-5 to 5.2, about 1M from 5.4.
  { id: 'gpt-5', match: /^gpt-5/, maxOutputTokens: 128_000, capabilities: reasoning, reasoningControl: 'effort' },
  { id: 'gpt-4.1', match: /^gpt-4\.1/, contextWindow: 1_047_576, maxOutputTokens: 32_768, capabilities: chat },
  {
    id: 'gpt-4o-audio',
    match: /^gpt-4o(-mini)?-audio/,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    capabilities: { ...chat, images: false, files: false, audio: true },
  },
  { id: 'gpt-4o', match: /^(gpt-4o|chatgpt-4o)/, contextWindow: 128_000, maxOutputTokens: 16_384, capabilities: chat },
  {
    id: 'o1-mini',
    match: /^o1-mini/,
    contextWindow: 128_000,
    maxOutputTokens: 65_536,
    capabilities: { ...textOnly, tools: false, reasoning: true, structuredOutput: false },
  },
  {
    id: 'o3-mini',
    match: /^o3-mini/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    capabilities: { ...textOnly, tools: true, reasoning: true, structuredOutput: true },
    reasoningControl: 'effort',
  },
  {
    id: 'o-series',
    match: /^o[134](-|$)/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    capabilities: reasoning,
    reasoningControl: 'effort',
  },
  {
    id: 'codex-mini',
    match: /^codex-mini/,
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    capabilities: reasoning,
    reasoningControl: 'effort',
  },
  {
    id: 'gpt-4-turbo',
    match: /^gpt-4-turbo/,
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
    capabilities: { tools: true, images: true, reasoning: false },
  },
  { id: 'gpt-4', match: /^gpt-4(-\d{4})?$/, contextWindow: 8_192, maxOutputTokens: 8_192, capabilities: { ...textOnly, reasoning: false } },
  {
    id: 'gpt-3.5-turbo',
    match: /^gpt-3\.5-turbo/,
    contextWindow: 16_385,
    maxOutputTokens: 4_096,
    capabilities: { ...textOnly, reasoning: false },
  },
];
