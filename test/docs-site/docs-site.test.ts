import { request } from 'node:http';
import { cp, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { switchyardDocs } from '../../src/index.js';
import { silentLogger } from '../../src/logger.js';
import { FIXTURE_DOCS, serveDocs, type ServedDocs } from './serve-docs.js';

const opened: ServedDocs[] = [];
const scratch: string[] = [];

afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function serve(options: Parameters<typeof serveDocs>[0] = {}): Promise<ServedDocs> {
  const served = await serveDocs(options);
  opened.push(served);
  return served;
}

async function get(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A GET with a Host header of our choosing (fetch sends the URL's). */
function getWithHost(
  port: number,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    })
      .on('error', reject)
      .end();
  });
}

const navLinks = (page: string) =>
  [...(/<nav aria-label="Guide">([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? '').matchAll(/href="([^"]+)"/g)].map((match) => match[1]);

describe('the guide at /docs', () => {
  it('should give headings the ids GitHub gives them and point links at the pages, anchors kept', async () => {
    const { origin } = await serve();
    const page = await get(`${origin}/docs/configuration`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 id="configuration">Configuration</h1>');
    expect(page.text).toContain('<h2 id="the-port">The port</h2>');
    expect(page.text).toContain('<h2 id="the-port-1">The port</h2>');
    expect(page.text).toContain('href="/docs/clients/openai#streaming"');
    expect(page.text).toContain('<a href="/docs/">home</a>');
    expect(page.text).toContain('<img src="/docs/screenshots/pixel.png" alt="The keys page">');
    // A file outside docs/ has no page here: its text stays, naming the file, with no link.
    expect(page.text).toContain('<span class="outside" title="bench/RESULTS.md in the repository">the bench results</span>');
    expect(page.text).not.toContain('RESULTS.md"');
    // From a subfolder, `../` links land on the guide's root.
    const client = await get(`${origin}/docs/clients/openai`);
    expect(client.text).toContain('href="/docs/configuration#the-port"');
    expect(client.text).toContain('href="/docs/errors"');
  });

  it('should show the address the request came to wherever a page says http://localhost:8787, or apiRoot where set', async () => {
    const { origin, port } = await serve();
    const byIp = await get(`${origin}/docs/clients/openai`);
    expect(byIp.text).toContain(`<span class="hljs-string">&#x27;${origin}/v1&#x27;</span>`);
    expect(byIp.text).not.toContain('localhost:8787');
    const byName = await get(`http://localhost:${port}/docs/first-request`);
    expect(byName.text).toContain(`curl http://localhost:${port}/v1/chat/completions`);
    expect(byName.text).not.toContain('localhost:8787');
    // A Host header that is no host name is never written into the page.
    const odd = await getWithHost(port, '/docs/configuration', 'a"b<c');
    expect(odd.status).toBe(200);
    expect(odd.text).not.toContain('a"b<c');
    expect(odd.text).not.toContain('a&#34;b');
    expect(odd.text).toContain('http://localhost:8787 unless');

    // Behind a trusted proxy, its X-Forwarded-Host and X-Forwarded-Proto (http or https only).
    const proxied = await serve({ trustProxy: true });
    const forwarded = (proto: string) =>
      getWithHost(proxied.port, '/docs/configuration', '127.0.0.1', { 'x-forwarded-host': 'llm.example.com', 'x-forwarded-proto': proto });
    expect((await forwarded('https')).text).toContain('listens at https://llm.example.com unless');
    expect((await forwarded('javascript')).text).toContain('listens at http://llm.example.com unless');

    const behind = await serve({ apiRoot: 'https://llm.example.com/gw/' });
    expect((await get(`${behind.origin}/docs/clients/openai`)).text).toContain('https://llm.example.com/gw/v1');
  });

  it('should answer only the host names allowedHosts lists, besides IP literals and localhost', async () => {
    const { port } = await serve({ allowedHosts: ['docs.example.com'] });
    expect((await getWithHost(port, '/docs/configuration', 'docs.example.com')).text).toContain(
      'listens at http://docs.example.com unless',
    );
    const refused = await getWithHost(port, '/docs/', 'rebound.example.net');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('host_not_allowed');
  });

  it('should build the navigation from index.md in its order, the pages it does not list after them', async () => {
    const { origin } = await serve();
    const home = await get(`${origin}/docs`);
    expect(home.status).toBe(200);
    expect(navLinks(home.text)).toEqual(['/docs/', '/docs/configuration', '/docs/first-request', '/docs/clients/openai', '/docs/errors']);
    expect(home.text).toContain('<h2>Clients</h2>');
    expect(home.text).toContain('<h2>More pages</h2>');
    expect((await get(`${origin}/docs/first-request`)).text).toContain(
      '<a href="/docs/first-request" aria-current="page">The first request</a>',
    );
  });

  it('should find a word on the page that has it, and say so when no page has it', async () => {
    const { origin } = await serve();
    const found = await get(`${origin}/docs/search?q=Zanzibar`);
    expect(found.status).toBe(200);
    expect(found.text).toContain('1 page of the guide.');
    expect(found.text).toMatch(/<li><a href="\/docs\/configuration">Configuration<\/a><p>[^<]*the word <mark>zanzibar<\/mark> appears/);
    // Every word must be on the page; the query is shown escaped.
    const none = await get(`${origin}/docs/search?q=${encodeURIComponent('zanzibar <b>streaming')}`);
    expect(none.text).toContain('No page of the guide has every one of these words.');
    expect(none.text).toContain('Search: zanzibar &#60;b&#62;streaming');
    expect(none.text).not.toContain('<b>streaming');
  });

  it('should link the status page (and the console where given) from every page, and serve the images, the stylesheet and .md addresses', async () => {
    const { origin } = await serve({ consolePath: '/console' });
    for (const path of ['/docs', '/docs/configuration', '/docs/search?q=port', '/docs/no-such-page']) {
      const page = await get(`${origin}${path}`);
      expect(page.text, path).toContain('<a class="status-link" href="/status">Status page</a>');
      expect(page.text, path).toContain('<a href="/console">Console</a>');
      expect(page.headers.get('content-security-policy'), path).toContain("script-src 'self'");
    }
    expect((await get(`${origin}/docs/no-such-page`)).status).toBe(404);
    const image = await fetch(`${origin}/docs/screenshots/pixel.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const css = await get(`${origin}/docs/assets/docs.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.text).toContain('.hljs-string');
    const md = await get(`${origin}/docs/clients/openai.md`);
    expect(md.status).toBe(301);
    expect(md.headers.get('location')).toBe('/docs/clients/openai');

    const without = await serve({ statusPath: false });
    expect((await get(`${without.origin}/docs`)).text).not.toContain('class="status-link"');
  });

  it('should read the pages and images once: a file changed or removed after the first request does not change what is served', async () => {
    const root = await mkdtemp(join(tmpdir(), 'switchyard-docs-'));
    scratch.push(root);
    await cp(FIXTURE_DOCS, root, { recursive: true });
    const { origin } = await serve({ root });
    expect((await get(`${origin}/docs/configuration`)).text).toContain('zanzibar');
    expect((await fetch(`${origin}/docs/screenshots/pixel.png`)).status).toBe(200);
    await writeFile(join(root, 'configuration.md'), '# Changed\n');
    await unlink(join(root, 'screenshots/pixel.png'));
    expect((await get(`${origin}/docs/configuration`)).text).toContain('zanzibar');
    expect((await fetch(`${origin}/docs/screenshots/pixel.png`)).status).toBe(200);
  });

  it('should serve a home page when the folder has no pages', async () => {
    const { origin } = await serve({ root: join(FIXTURE_DOCS, 'no-such-folder') });
    const home = await get(`${origin}/docs`);
    expect(home.status).toBe(200);
    expect(home.text).toContain('This server has no guide pages');
  });

  it('should work as Express middleware at its mount path', async () => {
    const app = express();
    app.use('/guide', switchyardDocs({ root: FIXTURE_DOCS, logger: silentLogger }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const page = await get(`${origin}/guide/configuration`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('href="/guide/clients/openai#streaming"');
      expect(page.text).toContain('<link rel="stylesheet" href="/guide/assets/docs.css">');
      expect((await get(`${origin}/guide/search?q=zanzibar`)).text).toContain('href="/guide/configuration"');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
