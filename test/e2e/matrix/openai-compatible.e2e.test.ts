import { runMatrix } from '../../helpers/matrix/index.js';
import { openAICompatibleUpstreams } from './openai-compatible-upstream.js';

for (const upstream of openAICompatibleUpstreams) runMatrix(upstream);
