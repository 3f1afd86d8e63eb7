import { createOpenAICompatibleProvider, type OpenAICompatibleProfile } from '../../../src/providers/openai-compatible/index.js';
import type { MatrixUpstream } from '../../helpers/matrix/index.js';
import { chatMatrixUpstream, type ChatUpstreamOptions } from './chat-upstream.js';

/** How each profile in the matrix differs on the wire. */
const profiles: Array<[OpenAICompatibleProfile, ChatUpstreamOptions]> = [
  ['vllm', { label: 'vLLM', maxTokensField: 'max_tokens' }],
  ['groq', { label: 'Groq', maxTokensField: 'max_completion_tokens' }],
  // Mistral's own ids are 9 alphanumerics (and it accepts no other in history); "required" is `any`.
  ['mistral', { label: 'Mistral', maxTokensField: 'max_tokens', required: 'any', toolCallIds: ['D681PevKs', 'Q7x2LmN4p'] }],
];

export const openAICompatibleUpstreams: MatrixUpstream[] = profiles.map(([profile, options]) =>
  chatMatrixUpstream(
    `openai-compatible-${profile}`,
    (upstreamUrl) => createOpenAICompatibleProvider({ profile, baseURL: `${upstreamUrl}/v1`, apiKey: 'server-key' }),
    options,
  ),
);
