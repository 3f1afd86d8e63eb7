import { actionOf, type CompiledRequestPolicy } from './compiled-request-policy.js';
import { policyRefusalError } from './policy-errors.js';

const BETA = 'anthropic-beta';

/**
 * The caller headers passed to the provider, with `anthropic-beta` held to the policy: values it
 * strips are left out (the header too when none is left), a value it refuses is a 400. Returns
 * `headers` itself when nothing changes.
 */
export function policeClientHeaders(
  policy: CompiledRequestPolicy,
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const betas = headers?.[BETA];
  if (betas === undefined || policy.anthropicBetas.allowsAll) return headers;
  const kept = keptBetas(policy, betas);
  if (kept === betas) return headers;
  const { [BETA]: _betas, ...others } = headers!;
  if (kept !== '') return { ...others, [BETA]: kept };
  return Object.keys(others).length === 0 ? undefined : others;
}

/** `value` (comma-separated) without the stripped betas; `value` itself when all pass. */
function keptBetas(policy: CompiledRequestPolicy, value: string): string {
  const kept: string[] = [];
  let changed = false;
  for (const raw of value.split(',')) {
    const beta = raw.trim();
    if (beta === '') continue;
    const action = actionOf(policy.anthropicBetas, beta);
    if (action === 'refuse') throw policyRefusalError({ kind: 'beta', name: beta });
    if (action === 'allow') kept.push(beta);
    else changed = true;
  }
  return changed ? kept.join(',') : value;
}
