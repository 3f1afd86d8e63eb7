import { runMatrix } from '../../helpers/matrix/index.js';
import { anthropicUpstream } from './anthropic-upstream.js';

runMatrix(anthropicUpstream);
