import { GatewayError } from '../canonical/index.js';
import type { Logger } from '../logger.js';
import type { InboundCodec } from '../protocols/codec.js';
import type { ResolvedModel } from '../routing/resolve-model.js';
import { watchOf, type CompiledRoute, type EndpointPipeline } from './compile-pipeline.js';
import { setRateLimitHeaders } from './rate-limit-headers.js';
import type { RequestContext } from './request-context.js';
import { addTimingHeaders, callProvider, sendStageAnswer, type AnswerOptions } from './respond.js';
import { runBefore } from './run-stages.js';
import type { StageAnswer } from './stage.js';

/**
 * From the resolved model on, the same for every entry point that generates (a caller's request,
 * the status page's probe): the route's stages in order, then the provider's answer — or the
 * answer of the stage that gave one.
 */
export function answerRoute(
  context: RequestContext,
  pipeline: EndpointPipeline,
  answering: AnswerOptions,
  model: ResolvedModel,
): Promise<void> {
  context.resolved = model;
  const route = pipeline.routeOf(model);
  context.stages = route.stages;
  if (route.watching.length > 0) context.mayRelay = false;
  // Not `async`, and the stages awaited only when one is: one promise less per request (hot-path rule 2).
  const ran = runBefore(context);
  if (ran instanceof Promise) return ran.then((answer) => answerWith(context, answering, route, answer));
  return answerWith(context, answering, route, ran);
}

/** The provider's answer, or the answer a stage gave. */
function answerWith(
  context: RequestContext,
  answering: AnswerOptions,
  route: CompiledRoute,
  answer: StageAnswer | undefined,
): Promise<void> {
  const watch = watchOf(route, context);
  return answer === undefined ? callProvider(context, answering, watch) : sendStageAnswer(context, answering, answer, watch);
}

/** Answers a refusal or failure in the caller's protocol, and notes how the request ended for the after-parts. */
export function failRequest(context: RequestContext, codec: InboundCodec, error: unknown, logger: Logger): void {
  const { res } = context;
  // A 429 from a limit carries the limits' standing, in headers as on any other answer.
  const rateLimit = GatewayError.isInstance(error) ? error.rateLimit : undefined;
  if (rateLimit !== undefined) setRateLimitHeaders(res, codec.protocol, rateLimit);
  if (!res.headersSent) addTimingHeaders(context);
  const ending = context.started.fail(res, codec, error, logger);
  context.status = ending.status;
  context.errorCode = ending.errorCode;
}
