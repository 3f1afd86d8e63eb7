import { runMatrix } from '../../helpers/matrix.js';
import { azureOpenAIUpstream, openaiUpstream } from './openai-upstream.js';

runMatrix(openaiUpstream);
runMatrix(azureOpenAIUpstream);
