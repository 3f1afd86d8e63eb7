import { createChatAdapter } from '../openai/index.js';
import { parseProviderOptions, transportOptionsOf } from '../provider-options.js';
import type { ProviderAdapter } from '../types.js';
import { openAICompatibleProviderOptionsSchema, type OpenAICompatibleProviderOptions } from './options.js';
import { openAICompatibleProfiles, type ChatQuirks } from './quirks.js';

/** Profiles of hosts with their own prices; the model catalog knows the others as open models on a server you run. */
const hostedProfiles: ReadonlySet<string> = new Set(['together', 'groq', 'deepseek', 'openrouter', 'mistral']);

/**
 * One adapter for every OpenAI-compatible Chat Completions server (vLLM, Ollama, llama.cpp,
 * LM Studio, Together, Groq, DeepSeek, OpenRouter, Mistral, or any other with `generic`),
 * driven by a quirks profile. It is the OpenAI adapter with another dialect: requests are
 * encoded as the server accepts them — a feature it cannot carry is a 400 naming it, never a
 * silent drop — and answers are decoded leniently.
 *
 * @example
 * createOpenAICompatibleProvider({ profile: 'ollama' });
 * createOpenAICompatibleProvider({ profile: 'groq', apiKey: process.env.GROQ_API_KEY });
 * createOpenAICompatibleProvider({ baseURL: 'http://gpu-box:8000/v1', quirks: { maxTokensField: 'max_completion_tokens' } });
 */
export function createOpenAICompatibleProvider(
  options: OpenAICompatibleProviderOptions = {},
): ProviderAdapter & { close(): Promise<void> } {
  const example = "createOpenAICompatibleProvider({ profile: 'ollama' })";
  const valid = parseProviderOptions(openAICompatibleProviderOptionsSchema, options, 'OpenAI-compatible provider option', example);
  const profile = valid.profile ?? 'generic';
  const quirks: ChatQuirks = { ...openAICompatibleProfiles[profile], ...valid.quirks };
  const { apiKey } = valid;
  // Servers without auth ignore the header, but some clients' proxies insist on one.
  const key = apiKey ?? (quirks.auth === 'none' ? 'switchyard' : undefined);
  const auth: Record<string, string> =
    key === undefined ? {} : quirks.auth === 'api-key' ? { 'api-key': key } : { authorization: `Bearer ${key}` };
  const { baseURL: _baseURL, auth: _auth, ...dialect } = quirks;
  return createChatAdapter({
    id: valid.id ?? `openai-compatible:${profile}`,
    upstream: {
      baseURL: valid.baseURL ?? quirks.baseURL ?? '',
      headers: { ...auth, ...valid.headers },
      ...(valid.query === undefined ? {} : { query: valid.query }),
      ...transportOptionsOf(valid),
    },
    dialect,
    modelCatalog: hostedProfiles.has(profile) ? profile : 'open-models',
    capabilities: () => ({
      providerTools: ['chat'],
      ...(quirks.responseFormats.length === 0 ? { structuredOutput: false } : {}),
    }),
  });
}
