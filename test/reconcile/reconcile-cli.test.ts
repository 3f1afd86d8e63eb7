import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Reconciliation } from '../../src/reconcile/compare-usage.js';
import { openDatabase } from '../../src/storage/open-database.js';
import type { UsageLedgerRow } from '../../src/storage/schema.js';
import { startFakeUsageReports, type FakeReportData } from '../helpers/fake-usage-reports.js';
import { useScratch } from '../helpers/scratch.js';
import { ConsoleVisitor } from '../helpers/console-visitor.js';
import { runCliInProcess, serveInProcess } from '../server/run-cli-in-process.js';
import { cleanEnv, parseBanner } from '../server/spawn-cli.js';

const scratch = useScratch();
const ADMIN_KEY = 'sk-admin-reconcile-7f3a9c0d2e1b';
const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
const row = (request: string, day: string, fields: Partial<UsageLedgerRow>): UsageLedgerRow => ({
  request_id: request,
  attempt: 1,
  at: at(day),
  protocol: 'chat',
  stream: 0,
  status: 200,
  billing: 'complete',
  usage_source: 'reported',
  ...fields,
});

/** A ledger in a SQLite file, and a config file serving it with `provider` pointing its reports at the fake. */
async function setUp(rows: UsageLedgerRow[], provider: string): Promise<{ config: string; database: string }> {
  const database = scratch.file('reconcile');
  const opened = await openDatabase({ url: database });
  await opened.db.insertInto('usage_ledger').values(rows).execute();
  await opened.close();
  // A YAML file (any name but *.json), removed after the test.
  const config = scratch.file('reconcile-config');
  writeFileSync(config, `database: ${database}\n${provider}`);
  return { config, database };
}

const openAIResult = (fields: Record<string, unknown>) => ({
  object: 'organization.usage.completions.result',
  input_tokens: 0,
  output_tokens: 0,
  num_model_requests: 0,
  project_id: null,
  user_id: null,
  batch: null,
  ...fields,
});

describe('switchyard reconcile', () => {
  it("should compare OpenAI's report, read over two pages, with the ledger per day, model and the gateway's key", async () => {
    const data: FakeReportData = {
      usage: {
        '2026-11-01': [
          openAIResult({
            model: 'gpt-4o-mini-2024-07-18',
            api_key_id: 'key_gateway',
            input_tokens: 1_300,
            input_cached_tokens: 200,
            output_tokens: 350,
            num_model_requests: 2,
          }),
          // Someone else's key in the same organisation.
          openAIResult({
            model: 'gpt-4o-mini-2024-07-18',
            api_key_id: 'key_other',
            input_tokens: 5_000,
            output_tokens: 1_000,
            num_model_requests: 9,
          }),
        ],
        // The gateway's key, used by someone else: the gateway sent nothing that day.
        '2026-11-02': [
          openAIResult({
            model: 'gpt-4o-mini-2024-07-18',
            api_key_id: 'key_gateway',
            input_tokens: 800,
            output_tokens: 100,
            num_model_requests: 1,
          }),
        ],
      },
      costs: {
        '2026-11-01': [
          {
            object: 'organization.costs.result',
            amount: { value: 0.0000015, currency: 'usd' },
            line_item: null,
            project_id: null,
            api_key_id: 'key_gateway',
          },
          {
            object: 'organization.costs.result',
            amount: { value: 0.01, currency: 'usd' },
            line_item: null,
            project_id: null,
            api_key_id: 'key_other',
          },
        ],
      },
    };
    const fake = await startFakeUsageReports({ provider: 'openai', adminKey: ADMIN_KEY, data });
    scratch.later(() => fake.close());
    const ledger = { provider: 'openai', model: 'gpt-4o-mini', upstream_model: 'gpt-4o-mini' };
    const { config } = await setUp(
      [
        row('r1', '2026-11-01', {
          ...ledger,
          input_tokens: 1_200,
          cached_input_tokens: 200,
          cache_write_tokens: 0,
          output_tokens: 300,
          cost_nano_usd: 1_000,
        }),
        row('r2', '2026-11-01', {
          ...ledger,
          stream: 1,
          billing: 'partial',
          usage_source: 'estimated',
          input_tokens: 100,
          cached_input_tokens: 0,
          output_tokens: 50,
          cost_nano_usd: 500,
        }),
        // A day the report lacks.
        row('r3', '2026-11-03', { ...ledger, input_tokens: 1_000, cached_input_tokens: 0, output_tokens: 100, cost_nano_usd: 700 }),
        // Another provider's traffic is not OpenAI's.
        row('r4', '2026-11-01', { provider: 'mock', model: 'mock', upstream_model: 'mock', input_tokens: 9, output_tokens: 9 }),
      ],
      `providers:\n  openai:\n    type: openai\n    apiKey: sk-test\n    adminKey: \${RECONCILE_TEST_ADMIN_KEY}\n    adminBaseURL: ${fake.origin}/v1\n    apiKeyId: key_gateway\nmodels:\n  - { id: gpt-4o-mini, provider: openai }\n`,
    );
    const env = cleanEnv({ RECONCILE_TEST_ADMIN_KEY: ADMIN_KEY });

    // The CLI runs in this process (test/server/run-cli-in-process.ts): no tsx start-up per run.
    const cli = await runCliInProcess(
      ['reconcile', '--config', config, '--provider', 'openai', '--from', '2026-11-01', '--to', '2026-11-03'],
      env,
    );
    expect(cli.code).toBe(0);
    const out = cli.stdout;
    expect(out).toMatch(/^OpenAI's usage report against the ledger, 2026-11-01 to 2026-11-03/);
    // The gateway's key on day 1 matches to the token: uncached input 1,000 + 100, cache read 200, output 350.
    expect(out).toMatch(
      /2026-11-01\s+gpt-4o-mini\s+key_gateway\s+input, uncached\s+1,100\s+1,100\s+0\s+0\.00 %\s+both\s+2 requests, 1 cut stream, 1 estimated; report: 2 requests/,
    );
    expect(out).toMatch(/cache read\s+200\s+200\s+0\s+0\.00 %/);
    expect(out).toMatch(/2026-11-01\s+gpt-4o-mini\s+\*\s+input, uncached\s+0\s+5,000\s+-5,000\s+-100\.00 %\s+!\s+report only/);
    expect(out).toMatch(/2026-11-02\s+gpt-4o-mini\s+key_gateway\s+input, uncached\s+0\s+800\s+-800\s+-100\.00 %\s+!\s+report only/);
    expect(out).toMatch(/2026-11-03\s+gpt-4o-mini\s+key_gateway\s+input, uncached\s+1,000\s+0\s+\+1,000\s+not in report\s+!\s+ledger only/);
    expect(out).toMatch(/2026-11-01\s+\*\s+key_gateway\s+\$0\.000002\s+\$0\.000002\s+\$0\.000000\s+0\.00 %\s+both/);
    expect(out).not.toContain('mock');
    expect(out).toMatch(/lines differ by more than 0\.5 %/);
    expect(`${out}${cli.stderr}`).not.toContain(ADMIN_KEY);

    // Both reports were read page by page (2 days a page) with the admin key as a bearer token.
    const usagePages = fake.requests.filter((request) => request.path === '/v1/organization/usage/completions');
    expect(usagePages).toHaveLength(2);
    expect(usagePages[1]?.query.get('page')).not.toBeNull();
    expect(usagePages[0]?.query.getAll('group_by[]')).toEqual(['model', 'api_key_id']);
    expect(usagePages[0]?.query.get('start_time')).toBe(String(Date.parse('2026-11-01T00:00:00Z') / 1000));
    expect(usagePages[0]?.query.get('end_time')).toBe(String(Date.parse('2026-11-04T00:00:00Z') / 1000));
    expect(fake.requests.filter((request) => request.path === '/v1/organization/costs')).toHaveLength(2);
    expect(fake.requests.every((request) => request.headers.authorization === `Bearer ${ADMIN_KEY}`)).toBe(true);

    // A key the organisation refuses: the provider's words, never the key.
    const refused = await runCliInProcess(
      ['reconcile', '--config', config, '--provider', 'openai', '--from', '2026-11-01', '--to', '2026-11-01'],
      cleanEnv({ RECONCILE_TEST_ADMIN_KEY: 'sk-admin-wrong-0000' }),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/OpenAI's usage report answered 401: Invalid authorization header/);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain('sk-admin-wrong-0000');
  }, 120_000);

  it("should compare Anthropic's report with the ledger as JSON, cache writes of both lifetimes and token costs per model", async () => {
    const data: FakeReportData = {
      usage: {
        '2026-11-01': [
          {
            uncached_input_tokens: 1_200,
            cache_creation: { ephemeral_1h_input_tokens: 200, ephemeral_5m_input_tokens: 100 },
            cache_read_input_tokens: 500,
            output_tokens: 440,
            server_tool_use: { web_search_requests: 0 },
            api_key_id: 'apikey_01gateway',
            workspace_id: null,
            model: 'claude-sonnet-4-20250514',
            service_tier: null,
            context_window: null,
          },
        ],
        // Another key of the organisation, on a model the gateway never served.
        '2026-11-02': [
          {
            uncached_input_tokens: 70,
            cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
            cache_read_input_tokens: 0,
            output_tokens: 30,
            api_key_id: 'apikey_01other',
            model: 'claude-haiku-4-5-20251001',
          },
        ],
      },
      costs: {
        '2026-11-01': [
          {
            currency: 'USD',
            amount: '0.6',
            workspace_id: null,
            description: 'Claude Sonnet 4 Usage - Input Tokens',
            cost_type: 'tokens',
            context_window: '0-200k',
            model: 'claude-sonnet-4-20250514',
            service_tier: 'standard',
            token_type: 'uncached_input_tokens',
          },
          {
            currency: 'USD',
            amount: '0.4',
            workspace_id: null,
            description: 'Claude Sonnet 4 Usage - Output Tokens',
            cost_type: 'tokens',
            context_window: '0-200k',
            model: 'claude-sonnet-4-20250514',
            service_tier: 'standard',
            token_type: 'output_tokens',
          },
          {
            currency: 'USD',
            amount: '1.0',
            workspace_id: null,
            description: 'Web Search',
            cost_type: 'web_search',
            context_window: null,
            model: null,
            service_tier: null,
            token_type: null,
          },
        ],
      },
    };
    const fake = await startFakeUsageReports({ provider: 'anthropic', adminKey: ADMIN_KEY, data });
    scratch.later(() => fake.close());
    const ledger = { provider: 'claude', model: 'sonnet', upstream_model: 'claude-sonnet-4', protocol: 'messages' };
    const { config } = await setUp(
      [
        row('a1', '2026-11-01', {
          ...ledger,
          input_tokens: 2_000,
          cached_input_tokens: 500,
          cache_write_tokens: 300,
          cache_write_1h_tokens: 200,
          output_tokens: 400,
          cost_nano_usd: 10_000_000,
        }),
        row('a2', '2026-11-01', {
          ...ledger,
          input_tokens: 400,
          output_tokens: 9,
          billing: 'partial',
          usage_source: 'estimated',
          cost_nano_usd: null,
        }),
        row('a3', '2026-11-03', {
          ...ledger,
          input_tokens: 10,
          cached_input_tokens: 0,
          cache_write_tokens: 0,
          output_tokens: 5,
          cost_nano_usd: 90,
        }),
      ],
      `providers:\n  claude:\n    type: anthropic\n    apiKey: sk-ant-test\n    adminKey: \${RECONCILE_TEST_ADMIN_KEY}\n    adminBaseURL: ${fake.origin}\nmodels:\n  - { id: sonnet, provider: claude, upstreamModel: claude-sonnet-4 }\n`,
    );
    const cli = await runCliInProcess(
      [
        'reconcile',
        '--config',
        config,
        '--provider',
        'anthropic',
        '--from',
        '2026-11-01',
        '--to',
        '2026-11-03',
        '--threshold',
        '5',
        '--json',
      ],
      cleanEnv({ RECONCILE_TEST_ADMIN_KEY: ADMIN_KEY }),
    );
    expect(cli.code).toBe(0);
    const result = JSON.parse(cli.stdout) as Reconciliation;
    expect(result).toMatchObject({ provider: 'anthropic', from: '2026-11-01', to: '2026-11-03', threshold: 5 });
    expect(result.usage.map((line) => [line.day, line.model, line.apiKey, line.seen])).toEqual([
      ['2026-11-01', 'claude-sonnet-4', '*', 'both'],
      ['2026-11-02', 'claude-haiku-4-5-20251001', '*', 'report-only'],
      ['2026-11-03', 'claude-sonnet-4', '*', 'ledger-only'],
    ]);
    const [first] = result.usage;
    // Ledger: 2,000 − 500 − 300 + 400 (the cut stream) uncached; the report counts the cut stream's input too.
    expect(first?.tokens.uncachedInputTokens).toMatchObject({ ledger: 1_600, report: 1_200, difference: 400, flagged: true });
    expect(first?.tokens.cacheWriteTokens).toMatchObject({ ledger: 300, report: 300, difference: 0, flagged: false });
    expect(first?.tokens.cachedInputTokens).toMatchObject({ ledger: 500, report: 500, flagged: false });
    expect(first?.tokens.outputTokens).toMatchObject({ ledger: 409, report: 440, difference: -31, flagged: true });
    expect(first?.ledger).toMatchObject({ requests: 2, cutStreams: 1, estimatedRows: 1, unpricedRows: 1 });
    expect(first?.reportRequests).toBeUndefined();
    // Token costs only (the web search is not tokens), in cents: 0.6 + 0.4 = 1 cent = 10,000,000 nano-USD.
    expect(result.costs.find((line) => line.day === '2026-11-01')).toMatchObject({
      model: 'claude-sonnet-4',
      apiKey: '*',
      seen: 'both',
      unpricedRows: 1,
      cost: { ledger: 10_000_000, report: 10_000_000, difference: 0 },
    });
    expect(cli.stdout).not.toContain(ADMIN_KEY);
    const usagePages = fake.requests.filter((request) => request.path === '/v1/organizations/usage_report/messages');
    expect(usagePages).toHaveLength(2);
    expect(usagePages[0]?.query.get('starting_at')).toBe('2026-11-01T00:00:00.000Z');
    expect(usagePages[0]?.query.getAll('group_by[]')).toEqual(['model', 'api_key_id']);
    expect(
      fake.requests.every((request) => request.headers['x-api-key'] === ADMIN_KEY && request.headers['anthropic-version'] === '2023-06-01'),
    ).toBe(true);
    expect(fake.requests.filter((request) => request.path === '/v1/organizations/cost_report')[0]?.query.getAll('group_by[]')).toEqual([
      'description',
    ]);
  }, 120_000);

  it("should give the standalone server's console the admin key from the config, for its Reconcile page", async () => {
    const fake = await startFakeUsageReports({
      provider: 'openai',
      adminKey: ADMIN_KEY,
      data: {
        usage: {
          '2026-11-01': [
            openAIResult({ model: 'gpt-4.1', api_key_id: 'key_x', input_tokens: 70, output_tokens: 7, num_model_requests: 1 }),
          ],
        },
        costs: {},
      },
    });
    scratch.later(() => fake.close());
    const { config } = await setUp(
      [
        row('s1', '2026-11-01', {
          provider: 'openai',
          model: 'gpt-4.1',
          upstream_model: 'gpt-4.1',
          input_tokens: 70,
          output_tokens: 7,
          cost_nano_usd: 10,
        }),
      ],
      `providers:\n  openai:\n    apiKey: sk-test\n    adminKey: \${RECONCILE_TEST_ADMIN_KEY}\n    adminBaseURL: ${fake.origin}/v1\nmodels:\n  - { id: gpt-4.1, provider: openai }\n`,
    );
    const env = cleanEnv({ RECONCILE_TEST_ADMIN_KEY: ADMIN_KEY });
    const server = await serveInProcess(['serve', '--config', config, '--port', '0', '--log-level', 'silent'], env);
    scratch.later(() => server.stop());
    const { root } = parseBanner(server.stdout(), env);
    const admin = new ConsoleVisitor(root);
    expect((await admin.post('/register', { email: 'admin@example.com', password: 'a long enough password' })).status).toBe(303);
    const page = await admin.get('/reconcile?provider=openai&from=2026-11-01&to=2026-11-01');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<td class="when">2026-11-01<\/td><td>gpt-4\.1<\/td><td><code>\*<\/code><\/td><td>input, uncached<\/td>\s*<td class="num">70<\/td><td class="num">70<\/td><td class="num">0<\/td>/,
    );
    expect(`${page.text}${server.stdout()}${server.stderr()}`).not.toContain(ADMIN_KEY);
  }, 120_000);
});
