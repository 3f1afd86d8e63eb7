import { describe, expect, it } from 'vitest';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { queryUsage } from '../../src/usage/usage-queries.js';
import { answeredRow, failedAttempt, sampleAt, useLedgerDatabases } from '../helpers/ledger-database.js';

const ledgerIn = useLedgerDatabases();

const at = sampleAt;
const base = answeredRow;
const failed = failedAttempt;

describe.each(['sqlite', 'postgres'] as const)('queryUsage on %s', (engine) => {
  const ledger = (rows: UsageLedgerRow[]) => ledgerIn(engine, rows);

  it('should count a retried request once, its attempts apart, and not its failed attempt as a failed request', async () => {
    const database = await ledger([
      // Answered at the second attempt.
      { ...base, ...failed, request_id: 'retried', attempt: 1, at: at + 1 },
      { ...base, request_id: 'retried', attempt: 2 },
      // Failed at its only attempt.
      { ...base, ...failed, request_id: 'failed', attempt: 1 },
      // Refused by a limit before any provider was called (attempt 0).
      { ...base, ...failed, request_id: 'refused', attempt: 0, status: 429, error_code: 'RATE_LIMITED' },
      // Cut short.
      { ...base, request_id: 'cut', attempt: 1, billing: 'partial' },
    ]);
    const [totals] = await queryUsage(database.reads, { groupBy: 'key' });
    expect(totals).toMatchObject({
      group: 'k1',
      requests: 4,
      attempts: 4,
      errors: 2,
      partial: 1,
      inputTokens: 20,
      outputTokens: 4,
      costNanoUsd: 200,
      unpriced: 0,
    });
  });

  it("should count a fallen-back request under the model that answered, and the failed model's attempt there", async () => {
    const database = await ledger([
      { ...base, ...failed, request_id: 'fell-back', attempt: 1, model: 'first', at: at + 1 },
      { ...base, request_id: 'fell-back', attempt: 2, model: 'second' },
    ]);
    const byModel = await queryUsage(database.reads, { groupBy: 'model' });
    expect(byModel.map(({ group, requests, attempts, errors }) => ({ group, requests, attempts, errors }))).toEqual([
      { group: 'second', requests: 1, attempts: 1, errors: 0 },
      { group: 'first', requests: 0, attempts: 1, errors: 0 },
    ]);
  });
});
