import { describe, expect, it } from 'vitest';
import { LimitPlanner } from '../../src/limits/limit-planner.js';
import { limitsFor, type LimitRules } from '../../src/limits/limit-rules.js';

const rules: LimitRules = {
  perKey: { requestsPerMinute: 60, tokensPerMinute: 10_000, concurrency: 2 },
  models: { m: { tokensPerMinute: 50_000 } },
};

describe('LimitPlanner', () => {
  it('gives what limitsFor gives, with each request’s own token estimate', () => {
    const planner = new LimitPlanner(rules);
    for (const tokens of [321, 7]) {
      const planned = planner.plan({ keyId: 'pub_k' }, 'm', () => tokens);
      expect(planned).toEqual(limitsFor(rules, { keyId: 'pub_k' }, 'm', () => tokens));
    }
  });

  it('reuses one plan per caller and model when no token limit needs the estimate', () => {
    const planner = new LimitPlanner({ perKey: { requestsPerMinute: 60, concurrency: 2 } });
    let estimated = 0;
    const estimate = () => (estimated += 1);
    const first = planner.plan({ keyId: 'pub_k' }, 'm', estimate);
    expect(planner.plan({ keyId: 'pub_k' }, 'm', estimate)).toBe(first);
    expect(planner.plan({ keyId: 'pub_k' }, 'other', estimate)).not.toBe(first);
    expect(estimated).toBe(0);
  });

  it('plans again when a stored key’s own limits or name change', () => {
    const planner = new LimitPlanner({ keys: { vip: { concurrency: 9 } } });
    expect(planner.plan({ keyId: 'pub_k', limits: { concurrency: 1 } }, 'm', () => 0).checks.map((check) => check.limit)).toEqual([1]);
    expect(planner.plan({ keyId: 'pub_k', limits: { concurrency: 3 } }, 'm', () => 0).checks.map((check) => check.limit)).toEqual([3]);
    expect(
      planner.plan({ keyId: 'pub_k', keyName: 'vip', limits: { concurrency: 3 } }, 'm', () => 0).checks.map((check) => check.limit),
    ).toEqual([9]);
  });
});
