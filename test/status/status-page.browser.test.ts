import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { statusPage, type StatusPage } from '../../src/status/status-page.js';
import { startGateway, TEST_KEY } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';

const scratch = useScratch();
const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/status');

describe('the status page in a browser', { timeout: 60_000 }, () => {
  it('should read without JavaScript: headings, a named table per model, a keyboard-reachable link', async () => {
    // Mounted after the gateway: it hands the paths it does not serve on.
    let page: StatusPage | undefined;
    const running = await startGateway(
      {
        database: scratch.file('db'),
        ledger: { outbox: scratch.file('outbox'), intervalMs: 5 },
        models: [{ id: 'mock', provider: 'mock' }],
      },
      '/',
      undefined,
      (app) => app.use((req, res, next) => page!(req, res, next)),
    );
    page = statusPage(running.gateway, { cacheMs: 0, probe: false });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 });
    const stream = await openai.chat.completions.create({ model: 'mock', stream: true, messages: [{ role: 'user', content: 'hello' }] });
    for await (const _ of stream) void _;
    await openai.chat.completions.create({ model: 'mock', messages: [{ role: 'user', content: 'hello' }] });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    scratch.later(() => browser.close());
    const context = await browser.newContext({ javaScriptEnabled: false });
    const tab = await context.newPage();
    const outside: string[] = [];
    tab.on('request', (request) => void (new URL(request.url()).host === new URL(running.root).host || outside.push(request.url())));
    await tab.goto(`${running.root}/status`);

    await expect(tab.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Service status');
    await expect(tab.getByRole('heading', { level: 2 }).textContent()).resolves.toBe('mock Operational');
    const table = tab.getByRole('table', { name: 'Figures of mock from its live traffic' });
    await expect(table.getByRole('columnheader').allTextContents()).resolves.toEqual([
      'Figure',
      'Last hour',
      'Last 24 hours',
      'Last 7 days',
    ]);
    const row = table.getByRole('row', { name: /^Success rate/ });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual(['100 %', '100 %', '100 %']);
    await expect(
      table
        .getByRole('row', { name: /^Requests/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).resolves.toBe('2');
    await tab.keyboard.press('Tab');
    await expect(tab.locator(':focus').textContent()).resolves.toBe('This page as JSON');
    expect(outside).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await tab.screenshot({ path: join(ARTIFACTS, 'status.png'), fullPage: true });
  });
});
