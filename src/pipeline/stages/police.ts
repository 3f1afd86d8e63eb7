import type { ProtocolName } from '../../canonical/index.js';
import { applyRequestPolicy } from '../../policy/apply-request-policy.js';
import { policeClientHeaders } from '../../policy/police-client-headers.js';
import { policyFor, type RequestPolicyTable } from '../../policy/request-policy-table.js';
import { strippedHints } from '../../policy/stripped-hints.js';
import type { Logger } from '../../logger.js';
import type { PipelineStage } from '../run-stages.js';
import { logAdaptations, noteAdaptations } from './adaptations.js';

/**
 * "police": what this key may send on to this model (the request policy), after the request was
 * fitted to the model and before anything is admitted or called: a refused field is a 400, a stripped one is named in the
 * adaptations, forwarded headers (`anthropic-beta`) are kept to what the policy allows.
 */
export function policeStage(
  table: RequestPolicyTable,
  protocol: ProtocolName,
  forwardedHeaders: readonly string[],
  logger: Logger,
): PipelineStage {
  return {
    name: 'police',
    before(context) {
      const policy = policyFor(table, context.caller, context.model);
      const { request } = context;
      const policed = applyRequestPolicy(policy, request, protocol);
      if (policed !== request) {
        noteAdaptations(context, strippedHints(request, policed, protocol));
        context.request = policed;
      }
      // The last stage that leaves anything out: one line for all of it.
      logAdaptations(context, logger);
      if (forwardedHeaders.length > 0) context.clientHeaders = policeClientHeaders(policy, pickHeaders(context.headers, forwardedHeaders));
      return undefined;
    },
  };
}

/** The caller headers the endpoint forwards that are present; undefined when none are. */
function pickHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  names: readonly string[],
): Record<string, string> | undefined {
  let picked: Record<string, string> | undefined;
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string' && value !== '') (picked ??= {})[name] = value;
  }
  return picked;
}
