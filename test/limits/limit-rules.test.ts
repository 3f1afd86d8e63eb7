import { describe, expect, it } from 'vitest';
import { LimitPlanner } from '../../src/limits/limit-planner.js';
import { keyLimitsOf, limitsFor, type LimitRules } from '../../src/limits/limit-rules.js';

describe('keyLimitsOf', () => {
  const rules: LimitRules = {
    perKey: { requestsPerMinute: 60, concurrency: 4, perModel: { big: { tokensPerMinute: 1_000 } } },
    keys: { vip: { concurrency: 10, perModel: { small: { requestsPerMinute: 5 } } }, pub_ci: { queueMs: 2_000 } },
  };

  it('takes the defaults, then the key’s own limits, then an override by name or public id, field by field', () => {
    expect(keyLimitsOf(rules, { keyId: 'pub_a', keyName: 'a' })).toEqual(rules.perKey);
    expect(keyLimitsOf(rules, { keyId: 'pub_b', keyName: 'b', limits: { concurrency: 1, tokensPerMinute: 500 } })).toEqual({
      requestsPerMinute: 60,
      concurrency: 1,
      tokensPerMinute: 500,
      perModel: { big: { tokensPerMinute: 1_000 } },
    });
    expect(keyLimitsOf(rules, { keyId: 'pub_v', keyName: 'vip', limits: { concurrency: 1 } })).toEqual({
      requestsPerMinute: 60,
      concurrency: 10,
      perModel: { big: { tokensPerMinute: 1_000 }, small: { requestsPerMinute: 5 } },
    });
    expect(keyLimitsOf(rules, { keyId: 'pub_ci', keyName: 'ci' })).toMatchObject({ concurrency: 4, queueMs: 2_000 });
  });

  it('gives the keys from the options one set, and nothing without any limit', () => {
    expect(keyLimitsOf({ keys: { options: { concurrency: 2 } } }, {})).toEqual({ concurrency: 2 });
    expect(keyLimitsOf({}, { keyId: 'pub_x' })).toBeUndefined();
  });
});

describe('limitsFor', () => {
  it('lists the key’s, the key-on-model’s and the model’s limits, counting tokens at the estimate once', () => {
    let estimated = 0;
    const applied = limitsFor(
      {
        perKey: { requestsPerMinute: 60, tokensPerMinute: 10_000, perModel: { m: { concurrency: 2 } } },
        models: { m: { tokensPerMinute: 50_000 } },
      },
      { keyId: 'pub_k' },
      'm',
      () => {
        estimated += 1;
        return 321;
      },
    );
    expect(applied.checks.map((check) => [check.key, check.kind, check.limit, check.cost])).toEqual([
      ['key:pub_k:rpm', 'rate', 60, 1],
      ['key:pub_k:tpm', 'rate', 10_000, 321],
      ['key:pub_k:model:m:concurrent', 'concurrency', 2, 1],
      ['model:m:tpm', 'rate', 50_000, 321],
    ]);
    expect(estimated).toBe(1);
    expect(applied.subjects.map((subject) => subject.scope)).toEqual(['key pub_k', 'key pub_k', 'key pub_k on model m', 'model m']);
    expect(applied.leaseKeys).toEqual(['key:pub_k:model:m:concurrent']);
    expect(applied.tokenChecks.map((check) => check.key)).toEqual(['key:pub_k:tpm', 'model:m:tpm']);
  });

  it('counts each rate with its burst: the whole limit unless set, field by field across layers, never above the limit', () => {
    const rules: LimitRules = {
      perKey: { requestsPerMinute: 50, tokensPerMinute: 1_000, burst: { requests: 5 } },
      keys: { pub_k: { requestsPerMinute: 4, burst: { tokens: 100 } } },
    };
    expect(keyLimitsOf(rules, { keyId: 'pub_k' })?.burst).toEqual({ requests: 5, tokens: 100 });
    const plan = (keyId: string) => limitsFor(rules, { keyId }, 'm', () => 10).checks.map((check) => [check.key, check.limit, check.burst]);
    // pub_k: the default's burst of 5 requests is above its own 4 per minute: it counts as 4.
    expect(plan('pub_k')).toEqual([
      ['key:pub_k:rpm', 4, 4],
      ['key:pub_k:tpm', 1_000, 100],
    ]);
    // The planner's per-request copy of a token check keeps its burst.
    expect(new LimitPlanner(rules).plan({ keyId: 'pub_k' }, 'm', () => 10).tokenChecks).toMatchObject([{ cost: 10, burst: 100 }]);
    expect(plan('pub_x')).toEqual([
      ['key:pub_x:rpm', 50, 5],
      ['key:pub_x:tpm', 1_000, 1_000],
    ]);
  });
});
