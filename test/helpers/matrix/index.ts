// The e2e matrix: `runMatrix(upstream)` and the vocabulary upstream definitions are written in.
export * from './definitions.js';
export { FINISH_WORDS, refusalFor, runMatrix } from './run-matrix.js';
