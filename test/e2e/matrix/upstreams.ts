import type { MatrixUpstream } from '../../helpers/matrix/index.js';
import { anthropicUpstream } from './anthropic-upstream.js';
import { geminiUpstream } from './gemini-upstream.js';
import { openAICompatibleUpstreams } from './openai-compatible-upstream.js';
import { openAIResponsesUpstream } from './openai-responses-upstream.js';
import { azureOpenAIUpstream, openaiUpstream } from './openai-upstream.js';

/** Every upstream the matrix runs against, in README column order. */
export const MATRIX_UPSTREAMS: readonly MatrixUpstream[] = [
  openaiUpstream,
  azureOpenAIUpstream,
  ...openAICompatibleUpstreams,
  openAIResponsesUpstream,
  anthropicUpstream,
  geminiUpstream,
];
