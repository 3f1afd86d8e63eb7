import { runMatrix } from '../../helpers/matrix/index.js';
import { geminiUpstream } from './gemini-upstream.js';

runMatrix(geminiUpstream);
