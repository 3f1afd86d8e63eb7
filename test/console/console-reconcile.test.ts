import { afterEach, describe, expect, it } from 'vitest';
import type { ReportSource } from '../../src/reconcile/provider-report.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { ConsoleVisitor, startConsole, type RunningConsole } from '../helpers/console-visitor.js';
import { startFakeUsageReports, type FakeUsageReports } from '../helpers/fake-usage-reports.js';

const ADMIN_KEY = 'sk-admin-console-5b8e2f';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const result = (fields: Record<string, unknown>) => ({
  object: 'organization.usage.completions.result',
  input_tokens: 0,
  output_tokens: 0,
  num_model_requests: 0,
  ...fields,
});

async function setUp(
  engine: 'sqlite' | 'postgres',
  adminKey = ADMIN_KEY,
): Promise<{ started: RunningConsole; fake: FakeUsageReports; admin: ConsoleVisitor; user: ConsoleVisitor }> {
  const fake = await startFakeUsageReports({
    provider: 'openai',
    adminKey: ADMIN_KEY,
    data: {
      usage: {
        '2026-11-01': [
          result({
            model: 'gpt-4.1-2025-04-14',
            api_key_id: 'key_gateway',
            input_tokens: 1_000,
            output_tokens: 200,
            num_model_requests: 1,
          }),
        ],
        // Someone else used the gateway's key on a day the gateway sent nothing.
        '2026-11-02': [
          result({
            model: 'gpt-4.1-2025-04-14',
            api_key_id: 'key_gateway',
            input_tokens: 4_000,
            output_tokens: 900,
            num_model_requests: 3,
          }),
        ],
      },
      costs: {
        '2026-11-01': [{ object: 'organization.costs.result', amount: { value: 0.0036, currency: 'usd' }, api_key_id: 'key_gateway' }],
      },
    },
  });
  cleanups.push(() => fake.close());
  const reportSources: ReportSource[] = [
    { provider: 'openai', adminKey, baseURL: `${fake.origin}/v1`, gatewayProviders: [{ name: 'openai', apiKeyId: 'key_gateway' }] },
  ];
  const started = await startConsole(engine, { registration: 'open', reportSources });
  cleanups.push(() => started.close());
  const db = await started.api.storage!();
  const base = {
    protocol: 'chat',
    stream: 0,
    status: 200,
    billing: 'complete',
    usage_source: 'reported',
    provider: 'openai',
    model: 'gpt-4.1',
    upstream_model: 'gpt-4.1',
  } as const;
  await db
    .insertInto('usage_ledger')
    .values([
      {
        ...base,
        request_id: 'r1',
        attempt: 1,
        at: Date.parse('2026-11-01T08:00:00Z'),
        input_tokens: 1_000,
        cached_input_tokens: 0,
        output_tokens: 180,
        cost_nano_usd: 3_440_000,
      },
      // A day the report lacks.
      {
        ...base,
        request_id: 'r2',
        attempt: 1,
        at: Date.parse('2026-11-03T08:00:00Z'),
        input_tokens: 10,
        output_tokens: 5,
        billing: 'partial',
        usage_source: 'estimated',
        cost_nano_usd: null,
      },
    ])
    .execute();
  const admin = new ConsoleVisitor(started.origin);
  expect((await admin.post('/register', { email: 'admin@example.com', password: 'a long enough password' })).status).toBe(303);
  const user = new ConsoleVisitor(started.origin);
  expect((await user.post('/register', { email: 'user@example.com', password: 'a long enough password' })).status).toBe(303);
  return { started, fake, admin, user };
}

describe.each(['sqlite', 'postgres'] as const)('the Reconcile page on %s', (engine) => {
  it("should show admins the provider's report against the ledger, and no one else", async () => {
    const { fake, admin, user } = await setUp(engine);
    // A bare visit shows the form and reads no report.
    const bare = await admin.get('/reconcile');
    expect(bare.status).toBe(200);
    expect(bare.text).toContain('<option value="openai" selected>OpenAI</option>');
    expect(fake.requests).toHaveLength(0);
    expect((await admin.get('/keys')).text).toContain('>Reconcile</a>');

    const page = await admin.get('/reconcile?provider=openai&from=2026-11-01&to=2026-11-03&threshold=5');
    expect(page.status).toBe(200);
    const rows = [
      ...page.text.matchAll(
        /<tr( class="flagged")?><td class="when">([^<]+)<\/td><td>([^<]+)<\/td><td><code>([^<]+)<\/code><\/td><td>([^<]+)<\/td>\s*<td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td>/g,
      ),
    ].map((match) => [match[1] === undefined ? '' : 'flagged', ...match.slice(2)]);
    expect(rows).toEqual([
      // Output 180 against 200: −10 %, above the 5 % asked for.
      ['', '2026-11-01', 'gpt-4.1', 'key_gateway', 'input, uncached', '1,000', '1,000', '0', '0.00 %'],
      ['flagged', '2026-11-01', 'gpt-4.1', 'key_gateway', 'output', '180', '200', '-20', '-10.00 %'],
      ['flagged', '2026-11-02', 'gpt-4.1', 'key_gateway', 'input, uncached', '0', '4,000', '-4,000', '-100.00 %'],
      ['flagged', '2026-11-02', 'gpt-4.1', 'key_gateway', 'output', '0', '900', '-900', '-100.00 %'],
      ['flagged', '2026-11-03', 'gpt-4.1', 'key_gateway', 'input, uncached', '10', '0', '+10', 'not in report'],
      ['flagged', '2026-11-03', 'gpt-4.1', 'key_gateway', 'output', '5', '0', '+5', 'not in report'],
    ]);
    expect(page.text).toContain('<td>report only</td><td>0 requests; report: 3 requests</td>');
    expect(page.text).toContain('<td>ledger only</td><td>1 request, 1 cut stream, 1 estimated, 1 unpriced</td>');
    // Cost per day and key: $0.003440 in the ledger against $0.003600 reported.
    expect(page.text).toMatch(
      /<td class="num">\$0\.003440<\/td><td class="num">\$0\.003600<\/td><td class="num">−\$0\.000160<\/td><td class="num">-4\.44 %<\/td><td><\/td>/,
    );
    expect(page.text).not.toContain(ADMIN_KEY);
    expect(fake.requests.filter((request) => request.path === '/v1/organization/usage/completions').length).toBeGreaterThanOrEqual(2);

    // Not for users: no link, and the page is not found.
    expect((await user.get('/keys')).text).not.toContain('>Reconcile</a>');
    const refused = await user.get('/reconcile?provider=openai&from=2026-11-01&to=2026-11-03');
    expect(refused.status).toBe(404);
  });
});

describe('the Reconcile page when the provider refuses the admin key', () => {
  it('should say what the provider answered, without the key', async () => {
    const { admin } = await setUp('sqlite', 'sk-admin-not-this-one');
    const page = await admin.get('/reconcile?provider=openai&from=2026-11-01&to=2026-11-02');
    expect(page.status).toBe(400);
    expect(page.text).toContain('OpenAI&#39;s usage report answered 401: Invalid authorization header');
    expect(page.text).not.toContain('sk-admin-not-this-one');
  });
});

describe('the Reconcile page in a browser', () => {
  it('should let an admin pick a provider and range, mark what is above the threshold in words, and fit a phone', async () => {
    const { started } = await setUp('sqlite');
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    const page = await browser.newPage();
    await page.goto(`${started.origin}/sign-in`);
    await page.getByLabel('E-mail').fill('admin@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/keys$/);
    await page.getByRole('link', { name: 'Reconcile' }).click();
    await page.getByLabel('From (UTC day)').fill('2026-11-01');
    await page.getByLabel('To (UTC day, included)').fill('2026-11-03');
    await page.getByLabel('Flag above (%)').fill('5');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/provider=openai/);
    expect(await page.getByRole('status').textContent()).toContain('OpenAI, 2026-11-01 to 2026-11-03: 3 lines differ by more than 5 %');
    // Flagged rows say so in words, not only in colour.
    expect(await page.locator('tr.flagged').count()).toBe(await page.locator('tr.flagged td.flag', { hasText: 'above threshold' }).count());
    expect(await page.locator('tr.flagged').count()).toBe(5);
    await screenshot(page, 'console', 'reconcile');
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBeLessThanOrEqual(0);
  }, 60_000);
});
