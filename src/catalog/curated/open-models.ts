import type { CatalogCapabilities, CuratedModel } from '../catalog-model.js';

// Open-weight models as OpenAI-compatible servers serve them (model cards on Hugging Face, read
// 2026-11). Windows only where every common server gives the model's native one. Most specific first.
const text: CatalogCapabilities = { images: false, files: false, audio: false };

export const openModels: readonly CuratedModel[] = [
  {
    id: 'gpt-oss',
    match: /^gpt-oss/,
    contextWindow: 131_072,
    capabilities: { ...text, tools: true, reasoning: true },
    reasoningControl: 'effort',
  },
  {
    id: 'deepseek-reasoner',
    match: /^deepseek-reasoner/,
    contextWindow: 128_000,
    maxOutputTokens: 64_000,
    capabilities: { ...text, reasoning: true },
    reasoningControl: 'always',
  },
  {
    id: 'deepseek-chat',
    match: /^deepseek-chat/,
    contextWindow: 128_000,
    maxOutputTokens: 8_192,
    capabilities: { ...text, tools: true, reasoning: false },
  },
  { id: 'deepseek-r1', match: /^deepseek-r1/, capabilities: { ...text, reasoning: true }, reasoningControl: 'always' },
  { id: 'deepseek-v3', match: /^deepseek-v3/, capabilities: { ...text, tools: true } },
  {
    id: 'llama-3.2-vision',
    match: /^(meta-)?llama-?3\.2-(11|90)b-vision/,
    contextWindow: 131_072,
    capabilities: { tools: true, images: true, files: false, audio: false, reasoning: false },
  },
  { id: 'llama-3', match: /^(meta-)?llama-?3\.[123]/, contextWindow: 131_072, capabilities: { ...text, tools: true, reasoning: false } },
  { id: 'llama-4', match: /^(meta-)?llama-?4/, capabilities: { tools: true, images: true, files: false, audio: false, reasoning: false } },
  { id: 'qwen3-vl', match: /^qwen3-vl/, capabilities: { tools: true, images: true, files: false, audio: false } },
  { id: 'qwen3-coder', match: /^qwen3-coder/, capabilities: { ...text, tools: true, reasoning: false } },
  { id: 'qwen3-instruct', match: /^qwen3-.*instruct/, capabilities: { ...text, tools: true, reasoning: false } },
  { id: 'qwen3', match: /^qwen3/, capabilities: { ...text, tools: true, reasoning: true }, reasoningControl: 'switch' },
  { id: 'qwq', match: /^qwq/, capabilities: { ...text, reasoning: true }, reasoningControl: 'always' },
  { id: 'qwen2.5-vl', match: /^qwen2\.5-vl/, capabilities: { images: true, files: false, audio: false, reasoning: false } },
  { id: 'qwen2.5', match: /^qwen-?2\.5/, capabilities: { ...text, tools: true, reasoning: false } },
  { id: 'magistral', match: /^magistral/, capabilities: { ...text, tools: true, reasoning: true } },
  {
    id: 'mistral',
    match: /^(mistral|ministral|codestral|devstral|open-mi[sx]tral|mixtral)/,
    capabilities: { audio: false, reasoning: false },
  },
];
