import type { Logger } from '../../logger.js';
import type { RequestContext } from '../request-context.js';

/** Response header naming what was left out of the request, e.g. `reasoning, tools.web_search`. */
export const ADAPTED_HEADER = 'x-switchyard-adapted';

/**
 * Adds what a stage left out of the request (the adapt policy's, then the request policy's), each
 * named once, and tells the caller (`x-switchyard-adapted`, put into the answer's one `writeHead`).
 */
export function noteAdaptations(context: RequestContext, added: readonly string[]): void {
  if (added.length === 0) return;
  const before = context.adaptations;
  const all = before === undefined ? added : [...new Set([...before, ...added])];
  context.adaptations = all;
  context.setAnswerHeader(ADAPTED_HEADER, all.join(', '));
}

/** One debug line for everything left out (the request log carries it already; this line is for a host without one). */
export function logAdaptations(context: RequestContext, logger: Logger): void {
  const { adaptations } = context;
  if (adaptations === undefined) return;
  logger.debug({ requestId: context.requestId, model: context.model, adaptations }, 'switchyard: request adapted to the model');
}
