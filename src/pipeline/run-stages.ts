import type { Logger } from '../logger.js';
import type { RequestContext } from './request-context.js';
import type { Stage, StageAnswer } from './stage.js';

/** A stage as the pipeline runs it: over the gateway's own context (users' stages see its public part). */
export type PipelineStage = Stage<RequestContext>;

/**
 * Runs the before-parts of `context.stages` from where the request stands, in order, until one
 * answers or the list ends. A stage that returns at once is not awaited, so a list of synchronous
 * stages runs in one go: hot-path rule 2 (docs/architecture.md#hot-path-rules).
 */
export function runBefore(context: RequestContext): StageAnswer | undefined | Promise<StageAnswer | undefined> {
  const { stages } = context;
  while (context.reached < stages.length) {
    const stage = stages[context.reached++]!;
    if (stage.before === undefined) continue;
    const result = stage.before(context);
    if (result === undefined) continue;
    if (result instanceof Promise)
      return result.then((answer) => (answer === undefined ? runBefore(context) : answeredBy(context, stage, answer)));
    return answeredBy(context, stage, result);
  }
  return undefined;
}

function answeredBy(context: RequestContext, stage: PipelineStage, answer: StageAnswer): StageAnswer {
  context.answeredBy = stage.name;
  return answer;
}

/**
 * Runs the after-parts, in reverse order, of every stage the request reached. None may keep the
 * others from running: a throw or a rejected promise is logged.
 */
export function runAfter(context: RequestContext, logger: Logger): void {
  const { stages } = context;
  for (let index = context.reached - 1; index >= 0; index -= 1) {
    const stage = stages[index]!;
    if (stage.after === undefined) continue;
    try {
      const done = stage.after(context);
      if (done instanceof Promise) done.catch((error: unknown) => afterFailed(logger, stage, context, error));
    } catch (error) {
      afterFailed(logger, stage, context, error);
    }
  }
}

function afterFailed(logger: Logger, stage: PipelineStage, context: RequestContext, error: unknown): void {
  logger.error({ error, stage: stage.name, requestId: context.requestId }, 'switchyard: a stage failed after the answer');
}
