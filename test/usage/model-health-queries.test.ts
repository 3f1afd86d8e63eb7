import { afterEach, describe, expect, it } from 'vitest';
import { queryFailureAt, queryHealthBuckets } from '../../src/usage/model-health-queries.js';
import type { Database } from '../../src/storage/open-database.js';
import { testDatabase } from '../helpers/test-database.js';

const opened: Array<{ database: Database; remove(): Promise<void> }> = [];

afterEach(async () => {
  for (const { database, remove } of opened.splice(0)) {
    await database.close();
    await remove();
  }
});

const base = { attempt: 0, key_public_id: 'key_1', protocol: 'chat', provider: 'p', stream: 0, billing: 'complete' } as const;

describe.each(['sqlite', 'postgres'] as const)('the status page queries on %s', (engine) => {
  async function ledger(): Promise<Database> {
    const store = testDatabase(engine);
    const database = await store.open();
    opened.push({ database, remove: () => store.remove() });
    // Another model's failure is written first and is the newest row of all: a query that let it in would find it.
    await database.db
      .insertInto('usage_ledger')
      .values([
        { ...base, request_id: 'req_c', model: 'shaky', at: 3_000, status: 500, error_code: 'UPSTREAM_ERROR', billing: 'failed' },
        { ...base, request_id: 'req_a', model: 'steady', at: 1_000, status: 429, error_code: 'RATE_LIMITED', billing: 'failed' },
        { ...base, request_id: 'req_b', model: 'steady', at: 2_000, status: 200, error_code: null, output_tokens: 10, latency_ms: 500 },
        {
          ...base,
          request_id: 'req_d',
          model: 'steady',
          at: 100,
          status: 502,
          error_code: 'UPSTREAM_UNREACHABLE',
          billing: 'failed',
          key_public_id: 'probe',
        },
      ])
      .execute();
    return database;
  }

  it("should find a model's own failure at a time, never another model's", async () => {
    const database = await ledger();
    expect(await queryFailureAt(database.reads, 'steady', 1_000)).toEqual({ at: 1_000, status: 429, errorCode: 'RATE_LIMITED' });
    expect(await queryFailureAt(database.reads, 'steady', 2_000)).toBeUndefined();
  });

  it('should sum each bucket of each model, newest bucket first', async () => {
    const database = await ledger();
    const buckets = await queryHealthBuckets(database.reads, ['steady', 'shaky', 'quiet'], [1_500, 500, 0], 'probe');
    const sorted = [...buckets].sort((a, b) => a.model.localeCompare(b.model) || a.bucket - b.bucket);
    expect(
      sorted.map(
        ({ model, bucket, requests, ok, rateLimited, failed, probes, outputTokens, generationMs, lastAt, lastFailureAt, lastProbeAt }) => ({
          model,
          bucket,
          requests,
          ok,
          rateLimited,
          failed,
          probes,
          outputTokens,
          generationMs,
          lastAt,
          lastFailureAt,
          lastProbeAt,
        }),
      ),
    ).toEqual([
      {
        model: 'shaky',
        bucket: 0,
        requests: 1,
        ok: 0,
        rateLimited: 0,
        failed: 1,
        probes: 0,
        outputTokens: 0,
        generationMs: 0,
        lastAt: 3_000,
        lastFailureAt: 3_000,
        lastProbeAt: undefined,
      },
      {
        model: 'steady',
        bucket: 0,
        requests: 1,
        ok: 1,
        rateLimited: 0,
        failed: 0,
        probes: 0,
        outputTokens: 10,
        generationMs: 500,
        lastAt: 2_000,
        lastFailureAt: undefined,
        lastProbeAt: undefined,
      },
      {
        model: 'steady',
        bucket: 1,
        requests: 1,
        ok: 0,
        rateLimited: 1,
        failed: 0,
        probes: 0,
        outputTokens: 0,
        generationMs: 0,
        lastAt: 1_000,
        lastFailureAt: 1_000,
        lastProbeAt: undefined,
      },
      {
        model: 'steady',
        bucket: 2,
        requests: 1,
        ok: 0,
        rateLimited: 0,
        failed: 1,
        probes: 1,
        outputTokens: 0,
        generationMs: 0,
        lastAt: 100,
        lastFailureAt: 100,
        lastProbeAt: 100,
      },
    ]);
  });
});
