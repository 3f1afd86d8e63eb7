import { describe, expect, it } from 'vitest';
import { usageReport } from '../../src/console/usage-report.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { answeredRow, failedAttempt, sampleAt, useLedgerDatabases } from '../helpers/ledger-database.js';

const ledgerIn = useLedgerDatabases();

const at = sampleAt;
const range = { from: Date.parse('2026-11-26T00:00:00Z'), to: Date.parse('2026-11-27T00:00:00Z') };
const base = answeredRow;
const failed = failedAttempt;

describe.each(['sqlite', 'postgres'] as const)('the console usage report on %s', (engine) => {
  const ledger = (rows: UsageLedgerRow[]) => ledgerIn(engine, rows);

  it('should count a retried request once, its attempts apart, and its failed attempt as no failed request', async () => {
    const database = await ledger([
      { ...base, ...failed, request_id: 'retried', attempt: 1 },
      { ...base, request_id: 'retried', attempt: 2, at: at + 1 },
      { ...base, ...failed, request_id: 'failed', attempt: 1 },
      { ...base, ...failed, request_id: 'limited', attempt: 1, status: 429, error_code: 'UPSTREAM_RATE_LIMITED' },
    ]);
    const rows = await usageReport(database.reads, range);
    expect(rows.map(({ requests, attempts, errors, rateLimited }) => ({ requests, attempts, errors, rateLimited }))).toEqual([
      { requests: 3, attempts: 4, errors: 2, rateLimited: 1 },
    ]);
  });

  it('should count a fallen-back request under the model that answered only, the failed model keeping its attempt', async () => {
    const database = await ledger([
      { ...base, ...failed, request_id: 'fell-back', attempt: 1, model: 'first' },
      { ...base, request_id: 'fell-back', attempt: 2, model: 'second', at: at + 1 },
    ]);
    const rows = await usageReport(database.reads, range);
    expect(rows.map(({ model, requests, attempts, errors }) => ({ model, requests, attempts, errors }))).toEqual([
      { model: 'first', requests: 0, attempts: 1, errors: 0 },
      { model: 'second', requests: 1, attempts: 1, errors: 0 },
    ]);
  });
});
