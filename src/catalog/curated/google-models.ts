import type { CatalogCapabilities, CuratedModel } from '../catalog-model.js';

// Google's Gemini API model pages (https://ai.google.dev/gemini-api/docs/models), read 2026-11. Most specific first.
const gemini: CatalogCapabilities = { tools: true, images: true, files: true, audio: true, structuredOutput: true };
/** Image, speech and live models are not text models: the catalog leaves them to the price source and the adapter. */
const textModel = '(?!.*(image|tts|live|audio|embedding))';

export const googleModels: readonly CuratedModel[] = [
  {
    id: 'gemini-2.5-flash-preview',
    match: /^gemini-2\.5-flash-preview-(04-17|05-20)$/,
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities: { ...gemini, reasoning: true },
    reasoningControl: 'budget',
    // The first 2.5 Flash previews priced thinking output apart ($3.50 against $0.60); the price source has only the latter.
    price: {
      price: { input: 0.15, output: 0.6, reasoning: 3.5, cachedInput: 0.0375 },
      effectiveFrom: '2025-04-17',
      sourceUrl: 'https://ai.google.dev/gemini-api/docs/pricing',
    },
  },
  {
    id: 'gemini-3',
    match: new RegExp(`^gemini-3(\\.\\d+)?-${textModel}`),
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities: { ...gemini, reasoning: true },
    reasoningControl: 'level',
  },
  {
    id: 'gemini-2.5',
    match: new RegExp(`^gemini-2\\.5-${textModel}`),
    contextWindow: 1_048_576,
    maxOutputTokens: 65_536,
    capabilities: { ...gemini, reasoning: true },
    reasoningControl: 'budget',
  },
  {
    id: 'gemini-2.0-flash',
    match: new RegExp(`^gemini-2\\.0-flash${textModel}`),
    contextWindow: 1_048_576,
    maxOutputTokens: 8_192,
    capabilities: { ...gemini, reasoning: false },
  },
  {
    id: 'gemini-1.5-pro',
    match: /^gemini-1\.5-pro/,
    contextWindow: 2_097_152,
    maxOutputTokens: 8_192,
    capabilities: { ...gemini, reasoning: false },
  },
  {
    id: 'gemini-1.5-flash',
    match: /^gemini-1\.5-flash/,
    contextWindow: 1_048_576,
    maxOutputTokens: 8_192,
    capabilities: { ...gemini, reasoning: false },
  },
];
