import type { CatalogCapabilities, CuratedModel } from '../catalog-model.js';

// Anthropic's models overview (https://docs.claude.com/en/docs/about-claude/models/overview), read
// 2026-11. Windows of the newest models come from the price source. Most specific first.
const claude: CatalogCapabilities = { tools: true, images: true, files: true, audio: false, reasoning: true };
const withoutThinking: CatalogCapabilities = { ...claude, reasoning: false };

export const anthropicModels: readonly CuratedModel[] = [
  { id: 'claude-opus-4-6', match: /^claude-opus-4[-.]6/, maxOutputTokens: 128_000, capabilities: claude, reasoningControl: 'budget' },
  { id: 'claude-sonnet-4-6', match: /^claude-sonnet-4[-.]6/, maxOutputTokens: 64_000, capabilities: claude, reasoningControl: 'budget' },
  {
    id: 'claude-opus-4-5',
    match: /^claude-opus-4[-.]5/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-sonnet-4-5',
    match: /^claude-sonnet-4[-.]5/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-haiku-4-5',
    match: /^claude-haiku-4[-.]5/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-opus-4-1',
    match: /^claude-opus-4[-.]1/,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-opus-4',
    match: /^claude-(opus-4(-0)?|4-opus)$/,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-sonnet-4',
    match: /^claude-(sonnet-4(-0)?|4-sonnet)$/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  {
    id: 'claude-3-7-sonnet',
    match: /^claude-3-7-sonnet/,
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    capabilities: claude,
    reasoningControl: 'budget',
  },
  { id: 'claude-3-5-haiku', match: /^claude-3-5-haiku/, contextWindow: 200_000, maxOutputTokens: 8_192, capabilities: withoutThinking },
  { id: 'claude-3-5-sonnet', match: /^claude-3-5-sonnet/, contextWindow: 200_000, maxOutputTokens: 8_192, capabilities: withoutThinking },
  { id: 'claude-3', match: /^claude-3-(opus|sonnet|haiku)/, contextWindow: 200_000, maxOutputTokens: 4_096, capabilities: withoutThinking },
  // Newer Claude models: what every Claude model since 3.7 does; the rest from the price source and the adapter.
  { id: 'claude', match: /^claude-/, capabilities: claude, reasoningControl: 'budget' },
];
