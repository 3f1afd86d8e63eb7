import { runMatrix } from '../../helpers/matrix/index.js';
import { azureOpenAIUpstream, openaiUpstream } from './openai-upstream.js';

runMatrix(openaiUpstream);
runMatrix(azureOpenAIUpstream);
