import { describe, expect, it } from 'vitest';
import { readAnthropicReport } from '../../src/reconcile/anthropic-report.js';
import { readOpenAIReport } from '../../src/reconcile/openai-report.js';
import { startFakeUsageReports } from '../helpers/fake-usage-reports.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const ADMIN_KEY = 'sk-admin-clients-1d2c';

describe('the report clients', () => {
  it("should read OpenAI's buckets page by page, asking a rate-limited page again, in the ledger's token kinds", async () => {
    const fake = await startFakeUsageReports({
      provider: 'openai',
      adminKey: ADMIN_KEY,
      bucketsPerPage: 1,
      rateLimitFirst: 2,
      data: {
        usage: {
          // The current fields: input_tokens holds cache reads and writes, input_uncached_tokens neither.
          '2026-11-01': [
            {
              object: 'organization.usage.completions.result',
              input_tokens: 1_000,
              input_cached_tokens: 400,
              input_cache_write_tokens: 100,
              input_uncached_tokens: 500,
              output_tokens: 50,
              num_model_requests: 2,
              model: 'gpt-5',
              api_key_id: 'key_a',
            },
          ],
          // An older answer without the uncached count, and without a model.
          '2026-11-03': [
            {
              object: 'organization.usage.completions.result',
              input_tokens: 300,
              input_cached_tokens: 100,
              output_tokens: 7,
              num_model_requests: 1,
              model: null,
              api_key_id: null,
            },
          ],
        },
        costs: {
          '2026-11-02': [
            {
              object: 'organization.costs.result',
              amount: { value: 1.25, currency: 'usd' },
              line_item: null,
              project_id: null,
              api_key_id: 'key_a',
            },
          ],
        },
      },
    });
    scratch.later(() => fake.close());
    const report = await readOpenAIReport(
      { provider: 'openai', adminKey: ADMIN_KEY, baseURL: `${fake.origin}/v1/`, gatewayProviders: [] },
      { from: '2026-11-01', to: '2026-11-03' },
    );
    expect(report.usage).toEqual([
      {
        day: '2026-11-01',
        model: 'gpt-5',
        apiKeyId: 'key_a',
        uncachedInputTokens: 500,
        cachedInputTokens: 400,
        cacheWriteTokens: 100,
        outputTokens: 50,
        requests: 2,
      },
      {
        day: '2026-11-03',
        model: '(no model)',
        apiKeyId: null,
        uncachedInputTokens: 200,
        cachedInputTokens: 100,
        cacheWriteTokens: 0,
        outputTokens: 7,
        requests: 1,
      },
    ]);
    expect(report.costs).toEqual([{ day: '2026-11-02', model: undefined, apiKeyId: 'key_a', nanoUsd: 1_250_000_000 }]);
    // 3 days at 1 a page, for each report, and the two 429s asked again.
    expect(fake.requests.filter((request) => request.path === '/v1/organization/usage/completions')).toHaveLength(3 + 2);
    expect(fake.requests.filter((request) => request.path === '/v1/organization/costs')).toHaveLength(3);
  });

  it('should say what Anthropic answered when it refuses, without the key, and read its cents as nano-USD', async () => {
    const fake = await startFakeUsageReports({
      provider: 'anthropic',
      adminKey: ADMIN_KEY,
      data: {
        usage: {},
        costs: { '2026-11-01': [{ currency: 'USD', amount: '123.45', cost_type: 'tokens', model: 'claude-opus-4-1-20250805' }] },
      },
    });
    scratch.later(() => fake.close());
    const source = { provider: 'anthropic' as const, adminKey: ADMIN_KEY, baseURL: `${fake.origin}/v1`, gatewayProviders: [] };
    const report = await readAnthropicReport(source, { from: '2026-11-01', to: '2026-11-01' });
    expect(report.costs).toEqual([{ day: '2026-11-01', model: 'claude-opus-4-1-20250805', apiKeyId: null, nanoUsd: 1_234_500_000 }]);
    expect(report.usage).toEqual([]);
    const refused = readAnthropicReport({ ...source, adminKey: 'sk-ant-admin-wrong' }, { from: '2026-11-01', to: '2026-11-01' });
    await expect(refused).rejects.toMatchObject({
      code: 'RECONCILE_REPORT_REFUSED',
      message: expect.stringMatching(/^Anthropic's usage report answered 401: invalid x-api-key\. Is adminKey an admin key/),
    });
    await expect(refused).rejects.not.toMatchObject({ message: expect.stringContaining('sk-ant-admin-wrong') });
  });
});
