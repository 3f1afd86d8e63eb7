import { describe, expect, it } from 'vitest';
import { policyFor, resolveRequestPolicyTable } from '../../src/policy/request-policy-table.js';

describe('policyFor', () => {
  const table = resolveRequestPolicyTable(
    { maxOutputTokens: 1000, keys: { options: { maxChoices: 2 }, ci: { maxOutputTokens: 50 }, sk_pub: { maxChoices: 9 } } },
    [{ id: 'big', requestPolicy: { maxOutputTokens: 8000 } }, { id: 'plain' }],
  );

  it("should give a key without an override the model's policy, else the gateway's", () => {
    expect(policyFor(table, { keyId: 'other' }, 'big').maxOutputTokens).toBe(8000);
    expect(policyFor(table, { keyId: 'other' }, 'plain')).toBe(table.gateway);
    expect(table.gateway.maxChoices).toBe(1);
  });

  it("should merge a key's override over the model's, by public id, else name, else 'options' for the keys from apiKeys", () => {
    expect(policyFor(table, {}, 'big')).toMatchObject({ maxChoices: 2, maxOutputTokens: 8000 });
    expect(policyFor(table, { keyId: 'k1', keyName: 'ci' }, 'big')).toMatchObject({ maxChoices: 1, maxOutputTokens: 50 });
    expect(policyFor(table, { keyId: 'sk_pub', keyName: 'ci' }, 'big')).toMatchObject({ maxChoices: 9, maxOutputTokens: 8000 });
  });

  it('should merge a key and model once, and hand out the same policy after', () => {
    expect(policyFor(table, { keyName: 'ci', keyId: 'k2' }, 'plain')).toBe(policyFor(table, { keyName: 'ci', keyId: 'k3' }, 'plain'));
  });
});
