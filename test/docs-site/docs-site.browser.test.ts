import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchyardDocs } from '../../src/docs-site/docs-handler.js';
import { gateway, type Gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { statusPage, type StatusPage } from '../../src/status/status-page.js';
import { launchBrowser, screenshot } from '../helpers/browser.js';
import { FIXTURE_DOCS } from './serve-docs.js';

// Two servers and one browser: the fixture guide with a status page beside it on a plain node:http
// server, and the standalone server with the package's own docs/ (whatever it holds today).
let browser: Browser;
let fixture: { origin: string; server: Server; api: Gateway; status: StatusPage };
let standalone: RunningServer;

beforeAll(async () => {
  const api = gateway({ models: [{ id: 'mock', provider: 'mock' }], logger: silentLogger });
  const status = statusPage(api, { probe: false });
  const docs = switchyardDocs({ root: FIXTURE_DOCS, basePath: '/docs', logger: silentLogger });
  const server = createServer((req, res) => (/^\/docs(\/|\?|$)/.test(req.url ?? '') ? docs(req, res) : status(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, api, status };
  standalone = await startServer({ logger: silentLogger }, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1_000 });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (fixture) {
    fixture.server.closeAllConnections();
    await new Promise((resolve) => fixture.server.close(resolve));
    await fixture.status.close();
    await fixture.api.close();
  }
  await standalone?.close().done;
});

interface Crawl {
  /** Every guide path visited, with its HTTP status. */
  visited: Map<string, number>;
  /** Links from guide pages to the rest of the server (the status page), with their status. */
  beyond: Map<string, number>;
  /** Links whose `#anchor` names no element of the page it points to. */
  brokenAnchors: string[];
  brokenImages: string[];
  consoleErrors: string[];
  /** Requests for anything not on the server (a CDN). */
  foreign: string[];
  /** Pages whose text still shows the address the pages are written with. */
  writtenAddress: string[];
}

/** Visits every page of the guide reachable from `/docs` by its links, and each link leaving the guide for the same server. */
async function crawl(page: Page, origin: string): Promise<Crawl> {
  const result: Crawl = {
    visited: new Map(),
    beyond: new Map(),
    brokenAnchors: [],
    brokenImages: [],
    consoleErrors: [],
    foreign: [],
    writtenAddress: [],
  };
  page.on('console', (message) => message.type() === 'error' && result.consoleErrors.push(`${page.url()}: ${message.text()}`));
  page.on('pageerror', (error) => result.consoleErrors.push(`${page.url()}: ${error.message}`));
  page.on(
    'request',
    (request) => !request.url().startsWith(origin) && !request.url().startsWith('data:') && result.foreign.push(request.url()),
  );
  const ids = new Map<string, string[]>();
  const anchors: { from: string; path: string; id: string }[] = [];
  const queue = ['/docs'];
  while (queue.length > 0) {
    const path = queue.shift() ?? '';
    if (result.visited.has(path)) continue;
    const response = await page.goto(`${origin}${path}`);
    result.visited.set(path, response?.status() ?? 0);
    ids.set(path, await page.$$eval('[id]', (elements) => elements.map((element) => element.id)));
    result.brokenImages.push(
      ...(await page.$$eval('img', (images) =>
        images.filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src),
      )),
    );
    if ((await page.innerText('body')).includes('http://localhost:8787')) result.writtenAddress.push(path);
    for (const href of await page.$$eval('a[href]', (links) => links.map((link) => (link as unknown as { href: string }).href))) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const target = url.pathname === '/docs/' ? '/docs' : url.pathname;
      if (url.hash !== '') anchors.push({ from: path, path: target, id: decodeURIComponent(url.hash.slice(1)) });
      if (target === '/docs' || target.startsWith('/docs/')) {
        if (!result.visited.has(target) && !queue.includes(target)) queue.push(target);
      } else if (!result.beyond.has(target)) {
        result.beyond.set(target, (await page.request.get(`${origin}${target}`)).status());
      }
    }
  }
  for (const { from, path, id } of anchors) if (!(ids.get(path) ?? []).includes(id)) result.brokenAnchors.push(`${from} → ${path}#${id}`);
  return result;
}

/** What every crawl must find: each page loads, no console error, no broken link, anchor or image, nothing from elsewhere. */
function expectSound(result: Crawl): void {
  expect([...result.visited].filter(([, status]) => status !== 200)).toEqual([]);
  expect([...result.beyond].filter(([, status]) => status !== 200)).toEqual([]);
  expect(result.consoleErrors).toEqual([]);
  expect(result.brokenAnchors).toEqual([]);
  expect(result.brokenImages).toEqual([]);
  expect(result.foreign).toEqual([]);
  expect(result.writtenAddress).toEqual([]);
}

describe('the guide in a real browser', () => {
  it('should load every page of the fixture guide from /docs, with no console error and no broken link', async () => {
    const page = await browser.newPage();
    const result = await crawl(page, fixture.origin);
    expectSound(result);
    expect([...result.visited.keys()].sort()).toEqual([
      '/docs',
      '/docs/clients/openai',
      '/docs/configuration',
      '/docs/errors',
      '/docs/first-request',
    ]);
    expect([...result.beyond.keys()]).toEqual(['/status']);
    await page.close();
  });

  it('should find with the search box a word that is on another page, and lead to it', async () => {
    const page = await browser.newPage();
    await page.goto(`${fixture.origin}/docs`);
    expect(await page.innerText('main')).not.toContain('zanzibar');
    await page.getByRole('searchbox', { name: 'Search the guide' }).fill('zanzibar');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${fixture.origin}/docs/search?q=zanzibar`);
    await page.getByRole('link', { name: 'Configuration' }).last().click();
    await page.waitForURL(`${fixture.origin}/docs/configuration`);
    expect(await page.innerText('main')).toContain('the word zanzibar appears only on this page');
    await page.close();
  });

  it("should show the server's own base URL in the snippets", async () => {
    const page = await browser.newPage();
    await page.goto(`${fixture.origin}/docs/clients/openai`);
    const code = await page.innerText('pre');
    expect(code).toContain(`baseURL: '${fixture.origin}/v1'`);
    expect(new URL(fixture.origin).port).not.toBe('8787');
    expect(await page.innerText('body')).not.toContain('localhost:8787');
    await page.goto(`${fixture.origin}/docs/first-request`);
    expect(await page.innerText('pre')).toContain(`curl ${fixture.origin}/v1/chat/completions`);
    await page.close();
  });

  it('should reach the status page from a page of the guide', async () => {
    const page = await browser.newPage();
    await page.goto(`${fixture.origin}/docs/configuration`);
    await page.getByRole('link', { name: 'Status page', exact: true }).click();
    await page.waitForURL(`${fixture.origin}/status`);
    expect(await page.innerText('body')).toContain('mock');
    await page.close();
  });

  it("should load every page of the package's own docs/ from the standalone server's /docs, whatever it holds", async () => {
    const page = await browser.newPage();
    const result = await crawl(page, standalone.root);
    expectSound(result);
    expect(result.visited.get('/docs')).toBe(200);
    expect(result.beyond.get('/status')).toBe(200);
    // The guide's screenshots (docs/screenshots/docs-*.png with SWITCHYARD_DOCS_SCREENSHOTS=1): its home, its
    // first page after it and a search.
    await page.setViewportSize({ width: 1100, height: 760 });
    await page.goto(`${standalone.root}/docs`);
    await screenshot(page, 'docs', 'home');
    const first = [...result.visited.keys()].find((path) => path !== '/docs');
    if (first !== undefined) {
      await page.goto(`${standalone.root}${first}`);
      await screenshot(page, 'docs', 'page');
    }
    await page.goto(`${standalone.root}/docs/search?q=key`);
    await screenshot(page, 'docs', 'search');
    await page.close();
  });
});
