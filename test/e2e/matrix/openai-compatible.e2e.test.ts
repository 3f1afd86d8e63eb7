import { createOpenAICompatibleProvider } from '../../../src/providers/openai-compatible/index.js';
import { runMatrix } from '../../helpers/matrix.js';
import { chatMatrixUpstream } from './chat-upstream.js';

for (const profile of ['vllm', 'groq', 'mistral'] as const) {
  runMatrix(
    chatMatrixUpstream(`openai-compatible-${profile}`, (upstreamUrl) =>
      createOpenAICompatibleProvider({ profile, baseURL: `${upstreamUrl}/v1`, apiKey: 'server-key' }),
      // Mistral's own ids are 9 alphanumerics (and it accepts no other in history).
      profile === 'mistral' ? 'D681PevKs' : undefined,
    ),
  );
}
