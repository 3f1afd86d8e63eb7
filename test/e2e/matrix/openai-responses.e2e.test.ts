import { runMatrix } from '../../helpers/matrix.js';
import { openAIResponsesUpstream } from './openai-responses-upstream.js';

runMatrix(openAIResponsesUpstream);
