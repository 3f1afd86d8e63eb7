import { describe, expect, it } from 'vitest';
import { queryLedgerUsage } from '../../src/reconcile/ledger-usage.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { useLedgerDatabases } from '../helpers/ledger-database.js';

const ledgerIn = useLedgerDatabases();

const at = Date.parse('2026-11-01T23:59:59Z');
const base = {
  at,
  key_public_id: 'k1',
  protocol: 'chat',
  model: 'fast',
  upstream_model: 'gpt-4o-mini',
  provider: 'openai',
  stream: 0,
  status: 200,
  billing: 'complete',
  usage_source: 'reported',
} as const;
const counts = {
  input_tokens: 1_000,
  cached_input_tokens: 300,
  cache_write_tokens: 100,
  output_tokens: 50,
  reasoning_tokens: 20,
  cost_nano_usd: 4_000,
} as const;

describe.each(['sqlite', 'postgres'] as const)('the ledger as reconciliation reads it, on %s', (engine) => {
  const ledger = (rows: UsageLedgerRow[]) => ledgerIn(engine, rows);

  it('should split input into the kinds a provider bills, per UTC day and upstream model, with the facts that explain a day', async () => {
    const database = await ledger([
      { ...base, ...counts, request_id: 'a', attempt: 1 },
      // Retried: the failed attempt has no counts; the request counts once.
      { ...base, request_id: 'b', attempt: 1, status: 503, billing: 'failed', usage_source: null },
      { ...base, ...counts, request_id: 'b', attempt: 2, at: at + 1, cost_nano_usd: null },
      // Cut short, estimated.
      {
        ...base,
        request_id: 'c',
        attempt: 1,
        stream: 1,
        billing: 'partial',
        usage_source: 'estimated',
        input_tokens: 10,
        output_tokens: 5,
        cost_nano_usd: 7,
      },
      // Delivered with no counts at all.
      { ...base, request_id: 'd', attempt: 1, usage_source: null },
      // The next UTC day, another provider, and a day outside the range.
      { ...base, ...counts, request_id: 'e', attempt: 1, at: at + 2_000 },
      { ...base, ...counts, request_id: 'f', attempt: 1, provider: 'anthropic' },
      { ...base, ...counts, request_id: 'g', attempt: 1, at: Date.parse('2026-10-31T23:00:00Z') },
    ]);
    const rows = await queryLedgerUsage(database.db, ['openai'], { from: '2026-11-01', to: '2026-11-02' });
    expect(rows).toEqual([
      {
        day: '2026-11-01',
        model: 'gpt-4o-mini',
        provider: 'openai',
        uncachedInputTokens: 600 + 600 + 10,
        cachedInputTokens: 600,
        cacheWriteTokens: 200,
        outputTokens: 105,
        costNanoUsd: 4_007,
        requests: 4,
        attempts: 5,
        failedAttempts: 1,
        cutStreams: 1,
        estimatedRows: 1,
        unpricedRows: 2,
        uncountedRows: 1,
      },
      expect.objectContaining({ day: '2026-11-02', model: 'gpt-4o-mini', uncachedInputTokens: 600, requests: 1 }),
    ]);
  });
});
