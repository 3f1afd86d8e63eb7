import { describe, expect, it } from 'vitest';
import { GatewayError, type Caller, type CanonicalRequest } from '../../src/canonical/index.js';
import { admitEverything, type AdmissionRequest } from '../../src/limits/admit-stage.js';
import { withBudgets, type LargestCost } from '../../src/limits/budget-stage.js';
import { MemoryBudgetStore } from '../../src/limits/budget-store.js';

/** $1 a day. */
const caller: Caller = { keyId: 'key1', keyName: 'key', budget: { nanoUsd: 1_000_000_000, period: 'day' } };
const request = (id: string): AdmissionRequest => ({ requestId: id, caller, model: 'm', provider: 'p', request: {} as CanonicalRequest });

/** Each request may cost up to $0.60 and costs what its usage's output count says, in cents. */
function budgets(spentInLedger = 0) {
  return withBudgets(admitEverything, {
    store: new MemoryBudgetStore(),
    maxCost: (): LargestCost => ({ nanoUsd: 600_000_000, bound: 'body' }),
    cost: (_model, usage) => (usage.outputTokens ?? 0) * 10_000_000,
    spentInLedger: async () => spentInLedger,
    spentByToken: async () => 0,
  });
}

async function refusalOf(admission: unknown): Promise<GatewayError> {
  try {
    await admission;
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('budget refusals', () => {
  it('should tell a request that fits but for the reservations of requests under way to retry, and let it in once they are done', async () => {
    const stage = budgets();
    const first = await stage.admit(request('a'));
    // $0.60 held by the first: $0.40 left of the counter, the second may cost $0.60.
    const busy = await refusalOf(stage.admit(request('b')));
    expect(busy).toMatchObject({ code: 'BUDGET_BUSY', kind: 'rate_limit', status: 429, retryable: true, retryAfter: 2 });
    // The first cost 5 cents: the second fits now.
    first.release({ outputTokens: 5 });
    await expect(Promise.resolve(stage.admit(request('b')))).resolves.toBeDefined();
  });

  it('should refuse for good a request the spend alone leaves no room for', async () => {
    const stage = budgets(500_000_000);
    const exceeded = await refusalOf(stage.admit(request('a')));
    expect(exceeded).toMatchObject({ code: 'BUDGET_EXCEEDED', kind: 'quota', retryable: false });
    expect(exceeded.message).toContain('has used $0.50 of its $1.00 budget');
  });
});

describe('budget settlement of a stream cut short', () => {
  it('should settle at the estimate on a model that prices reasoning apart, not keep the reservation', async () => {
    // Priced only when the reasoning count is known, as costOf does for a model with a reasoning price.
    const stage = withBudgets(admitEverything, {
      store: new MemoryBudgetStore(),
      maxCost: (): LargestCost => ({ nanoUsd: 600_000_000, bound: 'body' }),
      cost: (_model, usage) => (usage.reasoningTokens === undefined ? undefined : (usage.outputTokens ?? 0) * 10_000_000),
      spentInLedger: async () => 0,
      spentByToken: async () => 0,
    });
    const first = await stage.admit(request('a'));
    // 20 characters sent, none of them reasoning: 5 output tokens, 5 cents.
    first.release(undefined, {
      clientLeft: true,
      request: {} as CanonicalRequest,
      startUsage: { inputTokens: 10 },
      outputChars: 20,
      reasoningChars: 0,
    });
    // With the $0.60 reservation kept, $0.40 would be left: too little for the next one.
    await expect(Promise.resolve(stage.admit(request('b')))).resolves.toBeDefined();
  });
});
