import type { Usage } from '../../canonical/index.js';
import type { Admission, AdmissionControl } from '../../limits/admit-stage.js';
import { setRateLimitHeaders } from '../rate-limit-headers.js';
import type { RequestContext } from '../request-context.js';
import type { PipelineStage } from '../run-stages.js';

const nothingUsed: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

/**
 * "admit": let in or refuse before any provider is called — the key's model allowlist, its budget
 * (a reservation of the largest cost), its limits (rate, tokens, concurrency) — and, after, give
 * back what the request held with what it used.
 */
export function admitStage(admission: AdmissionControl): PipelineStage {
  return {
    name: 'admit',
    before(context) {
      const resolved = context.resolved!;
      const started = context.started;
      const admitted = admission.admit({
        requestId: context.requestId,
        caller: context.caller,
        model: resolved.id,
        provider: resolved.providerId,
        request: context.request,
        onClientGone: (listener) => started.abort.listen(listener),
      });
      if (!(admitted instanceof Promise)) return held(context, admitted);
      return admitted.then((admission) => held(context, admission));
    },
    after(context) {
      // A stage's answer (a cache hit) used nothing upstream: the budget and token limits are given back whole.
      context.admission?.release(context.answeredBy === undefined ? context.usage : nothingUsed, context.cut);
    },
  };
}

function held(context: RequestContext, admission: Admission): undefined {
  context.admission = admission;
  if (admission.rateLimit !== undefined) setRateLimitHeaders(context.res, context.protocol, admission.rateLimit);
  return undefined;
}
