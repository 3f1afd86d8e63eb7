import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CutStream, ModelPrice, Usage } from '../../src/canonical/index.js';
import { costOf } from '../../src/catalog/cost.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { createLedgerStage } from '../../src/usage/ledger-stage.js';
import type { LedgerWriter } from '../../src/usage/ledger-writer.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';

const request: CanonicalRequest = {
  model: 'claude',
  stream: true,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
};
const price: ModelPrice = { input: 3, output: 15 };

function record(cut: CutStream): RequestRecord {
  return {
    requestId: 'req_1',
    caller: undefined,
    protocol: 'messages',
    model: 'claude',
    provider: 'anthropic',
    upstreamModel: 'claude',
    stream: true,
    status: 200,
    errorCode: undefined,
    usage: undefined,
    upstream: undefined,
    startedAt: 1_000,
    durationMs: 10,
    attempts: 1,
    firstOutputMs: 5,
    userAgent: undefined,
    cut,
  };
}

/** The row a cut stream gets under a policy, priced as the catalog would. */
async function rowOf(startUsage: Usage | undefined, policy: 'estimate' | 'reported-only'): Promise<UsageLedgerRow> {
  const rows: UsageLedgerRow[] = [];
  const writer = { enqueue: (row: UsageLedgerRow) => rows.push(row) } as unknown as LedgerWriter;
  const stage = createLedgerStage({
    writer,
    interruptedStreams: policy,
    price: (_record, usage) => {
      const nanoUsd = costOf(usage, price);
      return nanoUsd === undefined ? undefined : { nanoUsd, priceVersion: 'test' };
    },
  });
  stage.record(record({ clientLeft: true, startUsage, outputChars: 400, reasoningChars: 0, request }));
  await stage.settled();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('createLedgerStage', () => {
  describe("a stream cut short under 'reported-only'", () => {
    it("should not take Anthropic's running output count from message_start for a reported total", async () => {
      // message_start reports the input and `output_tokens: 1`, a count that runs on until message_delta.
      const row = await rowOf(
        { inputTokens: 25, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, totalTokens: 26 },
        'reported-only',
      );
      expect(row).toMatchObject({
        billing: 'partial',
        usage_source: 'reported',
        input_tokens: 25,
        output_tokens: null,
        cost_nano_usd: null,
      });
    });

    it('should say no usage was reported when the provider reported none', async () => {
      const row = await rowOf(undefined, 'reported-only');
      expect(row).toMatchObject({ billing: 'partial', usage_source: null, input_tokens: null, output_tokens: null, cost_nano_usd: null });
    });
  });

  describe("a stream cut short under 'estimate'", () => {
    it('should price the input reported and the output sent', async () => {
      const row = await rowOf({ inputTokens: 25, outputTokens: 1, totalTokens: 26 }, 'estimate');
      expect(row).toMatchObject({
        billing: 'partial',
        usage_source: 'estimated',
        input_tokens: 25,
        output_tokens: 100,
        reasoning_tokens: 0,
      });
      expect(row.cost_nano_usd).toBe(25 * 3_000 + 100 * 15_000);
    });
  });
});

describe('createLedgerStage, a completed answer', () => {
  it('should record the 1-hour part of the cache writes, so the row can be re-priced from its own columns', async () => {
    const rows: UsageLedgerRow[] = [];
    const stage = createLedgerStage({ writer: { enqueue: (row: UsageLedgerRow) => rows.push(row) } as unknown as LedgerWriter });
    const usage: Usage = { inputTokens: 1_000, cachedInputTokens: 0, cacheWriteTokens: 300, cacheWrite1hTokens: 200, outputTokens: 10 };
    stage.record({ ...record({ clientLeft: true, startUsage: undefined, outputChars: 0, request }), cut: undefined, usage });
    expect(rows[0]).toMatchObject({ cache_write_tokens: 300, cache_write_1h_tokens: 200, usage_source: 'reported' });
  });
});
