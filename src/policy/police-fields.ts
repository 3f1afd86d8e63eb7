import type { CanonicalRequest, ProtocolName } from '../canonical/index.js';
import { actionOf, type CompiledRequestPolicy } from './compiled-request-policy.js';
import { choicesOverCapError, policyRefusalError } from './policy-errors.js';

/**
 * The request without the pass-through fields (`extensions[protocol]`) the policy strips; throws
 * for one it refuses, or for a Chat `n` over the cap. Returns `request` itself when nothing changes.
 */
export function policeFields(policy: CompiledRequestPolicy, request: CanonicalRequest, protocol: ProtocolName): CanonicalRequest {
  const fields = request.extensions?.[protocol];
  if (fields === undefined) return request;
  let strips = 0;
  for (const key in fields) {
    if (key === 'n' && protocol === 'chat') checkChoices(policy, fields[key]);
    if (policy.fields.allowsAll) continue;
    const action = actionOf(policy.fields, key);
    if (action === 'refuse') throw policyRefusalError({ kind: 'field', name: key });
    if (action === 'strip') strips += 1;
  }
  if (strips === 0) return request;
  let kept: Record<string, unknown> | undefined;
  for (const key in fields) if (actionOf(policy.fields, key) === 'allow') (kept ??= {})[key] = fields[key];
  const { [protocol]: _stripped, ...others } = request.extensions!;
  const extensions = kept === undefined ? others : { ...others, [protocol]: kept };
  const { extensions: _old, ...rest } = request;
  return Object.keys(extensions).length === 0 ? rest : { ...rest, extensions };
}

function checkChoices(policy: CompiledRequestPolicy, n: unknown): void {
  const cap = policy.maxChoices;
  if (cap !== undefined && typeof n === 'number' && n > cap) throw choicesOverCapError(n, cap);
}
