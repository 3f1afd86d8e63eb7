import type { CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { capOutputTokens } from './cap-output-tokens.js';
import type { CompiledRequestPolicy } from './compiled-request-policy.js';
import { policeFields } from './police-fields.js';
import { policeTools } from './police-tools.js';

/**
 * The request as the policy lets it reach the provider: pass-through fields stripped or refused,
 * hosted tools stripped or refused, `n` and output held to their caps. Throws a 400
 * `REQUEST_POLICY_REFUSED` / `REQUEST_POLICY_OVER_CAP` GatewayError naming what is refused.
 * Runs on every request: returns `request` itself, allocating nothing, when there is nothing to do.
 * @example
 * applyRequestPolicy(policyFor(table, caller, 'gpt-4o'), request, 'chat');
 */
export function applyRequestPolicy(policy: CompiledRequestPolicy, request: CanonicalRequest, protocol: ProtocolName): CanonicalRequest {
  let policed = policeFields(policy, request, protocol);
  policed = policeTools(policy, policed, protocol);
  return policy.maxOutputTokens === undefined ? policed : capOutputTokens(policy.maxOutputTokens, policed, protocol);
}
