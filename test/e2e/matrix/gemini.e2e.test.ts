import { runMatrix } from '../../helpers/matrix.js';
import { geminiUpstream } from './gemini-upstream.js';

runMatrix(geminiUpstream);
