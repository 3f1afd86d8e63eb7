import { describe, expect, it } from 'vitest';
import { compileRequestPolicy, mergeRequestPolicies } from '../../src/policy/compiled-request-policy.js';
import { defaultRequestPolicy } from '../../src/policy/default-request-policy.js';
import { policeClientHeaders } from '../../src/policy/police-client-headers.js';
import type { RequestPolicy } from '../../src/policy/request-policy.js';

const policyOf = (...layers: RequestPolicy[]) => compileRequestPolicy(mergeRequestPolicies([defaultRequestPolicy, ...layers]));

describe('policeClientHeaders', () => {
  it('should return the headers themselves when every beta passes, or there is none', () => {
    const headers = { 'anthropic-beta': 'claude-code-20250219, interleaved-thinking-2025-05-14' };
    expect(policeClientHeaders(policyOf(), headers)).toBe(headers);
    expect(policeClientHeaders(policyOf(), undefined)).toBeUndefined();
  });

  it('should leave out stripped betas, and the header when none is left', () => {
    expect(policeClientHeaders(policyOf(), { 'anthropic-beta': 'effort-2025-11-24,context-1m-2025-08-07' })).toEqual({
      'anthropic-beta': 'effort-2025-11-24',
    });
    expect(policeClientHeaders(policyOf(), { 'anthropic-beta': 'context-1m-2025-08-07, unknown-1' })).toBeUndefined();
  });

  it('should let an exact entry win over a prefix, and a longer prefix over a shorter one', () => {
    const policy = policyOf({ anthropicBetas: { 'new-*': 'allow', 'new-priced-*': 'strip', 'new-priced-2030-01-01': 'allow' } });
    expect(policeClientHeaders(policy, { 'anthropic-beta': 'new-a,new-priced-b,new-priced-2030-01-01' })).toEqual({
      'anthropic-beta': 'new-a,new-priced-2030-01-01',
    });
    // The default names the 1M-context betas: allowing every `context-*` does not allow them.
    expect(
      policeClientHeaders(policyOf({ anthropicBetas: { 'context-*': 'allow' } }), { 'anthropic-beta': 'context-1m-2025-08-07' }),
    ).toBeUndefined();
  });

  it('should throw a 400 for a refused beta', () => {
    expect(() =>
      policeClientHeaders(policyOf({ anthropicBetas: { 'oauth-*': 'refuse' } }), { 'anthropic-beta': 'oauth-2025-04-20' }),
    ).toThrow(expect.objectContaining({ code: 'REQUEST_POLICY_REFUSED', param: 'anthropic-beta' }));
  });
});
