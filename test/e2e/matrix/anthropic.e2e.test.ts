import { runMatrix } from '../../helpers/matrix.js';
import { anthropicUpstream } from './anthropic-upstream.js';

runMatrix(anthropicUpstream);
