import { runMatrix } from '../../helpers/matrix/index.js';
import { openAIResponsesUpstream } from './openai-responses-upstream.js';

runMatrix(openAIResponsesUpstream);
